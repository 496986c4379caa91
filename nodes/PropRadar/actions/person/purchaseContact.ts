import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { paths, refusedByService, toNodeError, type ApiEnvelope } from '../../transport';
import { boughtBeforeProperties, chargeProperties, withCharge, type ChargeNote } from '../../money';
import { personKeyProperty, readPersonKey } from '../../shared/parameters';
import { chargedRead, type ItemModule } from '../shapes';

// The phones (or e-mail addresses) an input item from Person > Get Owners carries for this person,
// so that an "already purchased" item has the same field as a purchase, at no charge.
function ownedOnInput(
	context: IExecuteFunctions,
	itemIndex: number,
	personKey: string,
	field: 'Phone' | 'Email',
): IDataObject[] | undefined {
	const input = context.getInputData()[itemIndex]?.json;
	const owned = input?.PersonKey === personKey ? input[field] : undefined;
	return Array.isArray(owned) && owned.length > 0 ? (owned as IDataObject[]) : undefined;
}

interface Contact {
	what: 'Phone' | 'Email';
	noun: string;
}

/** The item's records from the purchase's answer: each contact bought, or why there is none. */
function boughtContact(
	{ what, noun }: Contact,
	response: ApiEnvelope,
	note: ChargeNote,
	personKey: string,
): IDataObject[] {
	const records = response.results ?? [];
	if (records.length > 0)
		return withCharge(
			records.map((record) => ({ ...record, purchased: true })),
			note,
		);
	return [
		{
			PersonKey: personKey,
			purchased: false,
			message: `No ${noun} of ${String(personKey)} was bought: ${note.totalCost === '0.00' ? 'PropRadar had none to sell, and nothing was charged' : 'PropRadar returned none, and charged what _charge says'}. One bought before is in the ${what} field of Person > Get Owners for the person's property.`,
			_charge: note,
		},
	];
}

/** Bought before: the service refuses, and nothing is charged. Any other failure is thrown. */
function alreadyPurchased(
	{ what, noun }: Contact,
	context: IExecuteFunctions,
	itemIndex: number,
	personKey: string,
	error: unknown,
): IDataObject[] {
	const text = error instanceof NodeApiError ? `${error.message} ${error.description ?? ''}` : '';
	if (!refusedByService(error) || !/already purchased/i.test(text))
		throw toNodeError(context.getNode(), error, itemIndex);
	const owned = ownedOnInput(context, itemIndex, personKey, what);
	return [
		{
			PersonKey: personKey,
			...(owned ? { [what]: owned } : {}),
			purchased: false,
			alreadyPurchased: true,
			message:
				`The ${noun} of ${personKey} was already purchased, so nothing ` +
				`was charged. ` +
				(owned
					? `The ${what} field is the one you own, as the input item carries it (from Person > Get Owners), read at no charge.`
					: `The ${what} you own is in the ${what} field of Person > Get Owners for the person's property (Get Owners is charged per owner returned); put this node after Get Owners and this item carries it.`),
		},
	];
}

/** Purchase Phone and Purchase Email: the same operation on two endpoints. */
export function purchaseContactOperation(
	operation: 'purchasePhone' | 'purchaseEmail',
): Required<Pick<ItemModule, 'description' | 'execute' | 'keepsInputKeys' | 'boughtKey'>> {
	const what = operation === 'purchasePhone' ? 'Phone' : 'Email';
	const contact: Contact = { what, noun: what === 'Phone' ? 'phone number' : 'e-mail address' };
	const show = { resource: ['person'], operation: [operation] };
	const execute = chargedRead({
		kind: what === 'Phone' ? 'phone' : 'email',
		read: (context, itemIndex) => {
			const personKey = readPersonKey(context, itemIndex);
			const path = what === 'Phone' ? paths.personPhone(personKey) : paths.personEmail(personKey);
			// The preview names what it prices: `purchase: 'Phone'`.
			return { request: { method: 'POST', path }, extra: { PersonKey: personKey, purchase: what } };
		},
		bought: (response, note, extra) =>
			boughtContact(contact, response, note, String(extra.PersonKey)),
		failed: (context, itemIndex, extra, error) =>
			alreadyPurchased(contact, context, itemIndex, String(extra.PersonKey), error),
	});
	return {
		description: [
			personKeyProperty(show),
			...chargeProperties(show, `the person's ${contact.noun}`),
			...boughtBeforeProperties(show, 'PersonKey', contact.noun),
		],
		execute,
		keepsInputKeys: true,
		boughtKey: { name: 'PersonKey', read: readPersonKey },
	};
}
