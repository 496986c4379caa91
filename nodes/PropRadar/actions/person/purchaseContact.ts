import { NodeApiError } from 'n8n-workflow';

import { paths, refusedByService, toNodeError } from '../../transport';
import { boughtBeforeProperties, chargeProperties, withCharge } from '../../money';
import { personKeyProperty, readPersonKey } from '../../shared/parameters';
import { chargedRead, type ItemModule } from '../shapes';

/** Purchase Phone and Purchase Email: the same operation on two endpoints. */
export function purchaseContactOperation(
	operation: 'purchasePhone' | 'purchaseEmail',
): Required<Pick<ItemModule, 'description' | 'execute' | 'keepsInputKeys' | 'boughtKey'>> {
	const what = operation === 'purchasePhone' ? 'Phone' : 'Email';
	const noun = what === 'Phone' ? 'phone number' : 'e-mail address';
	const show = { resource: ['person'], operation: [operation] };
	const execute = chargedRead({
		kind: what === 'Phone' ? 'phone' : 'email',
		read: (context, itemIndex) => {
			const personKey = readPersonKey(context, itemIndex);
			const path = what === 'Phone' ? paths.personPhone(personKey) : paths.personEmail(personKey);
			// The preview names what it prices: `purchase: 'Phone'`.
			return { request: { method: 'POST', path }, extra: { PersonKey: personKey, purchase: what } };
		},
		// Each contact bought, or why there is none.
		bought: (response, note, extra) => {
			const records = response.results ?? [];
			if (records.length > 0)
				return withCharge(
					records.map((record) => ({ ...record, purchased: true })),
					note,
				);
			return [
				{
					PersonKey: extra.PersonKey,
					purchased: false,
					message: `No ${noun} of ${String(extra.PersonKey)} was bought: ${note.totalCost === '0.00' ? 'PropRadar had none to sell, and nothing was charged' : 'PropRadar returned none, and charged what _charge says'}. One bought before is in the ${what} field of Person > Get Owners for the person's property.`,
					_charge: note,
				},
			];
		},
		// Bought before: the service refuses, and nothing is charged. Any other failure is thrown.
		failed: (context, itemIndex, extra, error) => {
			const text =
				error instanceof NodeApiError ? `${error.message} ${error.description ?? ''}` : '';
			if (!refusedByService(error) || !/already purchased/i.test(text))
				throw toNodeError(context.getNode(), error, itemIndex);
			// What an input item from Person > Get Owners carries for this person: the same field as
			// a purchase gives, at no charge.
			const input = context.getInputData()[itemIndex]?.json;
			const owned = input?.PersonKey === extra.PersonKey ? input[what] : undefined;
			const carried = Array.isArray(owned) && owned.length > 0;
			return [
				{
					PersonKey: extra.PersonKey,
					...(carried ? { [what]: owned } : {}),
					purchased: false,
					alreadyPurchased: true,
					message: `The ${noun} of ${String(extra.PersonKey)} was already purchased, so nothing was charged. ${
						carried
							? `The ${what} field is the one you own, as the input item carries it (from Person > Get Owners), read at no charge.`
							: `The ${what} you own is in the ${what} field of Person > Get Owners for the person's property (Get Owners is charged per owner returned); put this node after Get Owners and this item carries it.`
					}`,
				},
			];
		},
	});
	return {
		description: [
			personKeyProperty(show),
			...chargeProperties(show, `the person's ${noun}`),
			...boughtBeforeProperties(show, 'PersonKey', noun),
		],
		execute,
		keepsInputKeys: true,
		boughtKey: { name: 'PersonKey', read: readPersonKey },
	};
}
