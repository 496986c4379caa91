import type { AccountSpec } from '../accounts';
import type { SandboxContext } from '../types';
import { getSearchable, NAMES, PROPERTY_COUNT } from './properties';
import { Seeded, usDate } from './random';

/**
 * Owners (persons) of the sandbox's properties: 1 to 3 per property, derived from the PropID.
 * Phones and e-mails exist for every person but are hidden until the account buys them. Some
 * persons have bankruptcy, divorce, lien, probate and relative records.
 */
export type PersonRecord = Record<string, unknown> & { PersonKey: string; PropID: string };

const ROLES = ['Owner', 'Owner', 'Principal', 'Trustee'];
const OCCUPATIONS = [
	'Teacher',
	'Engineer',
	'Nurse',
	'Retired',
	'Contractor',
	'Accountant',
	'Sales',
	null,
];

interface PersonState {
	/** account id -> PersonKey -> what it bought */
	purchases: Record<string, Record<string, { phone?: boolean; email?: boolean }>>;
	/** PersonKey -> isPrimaryContact override (import options), per account */
	primary: Record<string, Record<string, number>>;
	/** persons added by imports, per account: PropID -> persons */
	added: Record<string, Record<string, PersonRecord[]>>;
}

export function personState(ctx: SandboxContext): PersonState {
	return ctx.store.slice<PersonState>('persons', () => ({ purchases: {}, primary: {}, added: {} }));
}

function propIndex(propId: string): number {
	return Number(propId.slice(1)) || PROPERTY_COUNT + 1;
}

/** The secret contact details of a person, revealed when bought. */
function contacts(personKey: string): { phone: string; phoneType: string; email: string } {
	const rng = new Seeded(`${personKey}:contact`);
	return {
		phone: `${rng.int(200, 989)}${rng.int(200, 989)}${rng.digits(4)}`,
		phoneType: rng.pick(['mobile', 'mobile', 'landline', 'other']),
		email: `${personKey.toLowerCase()}@mail.example`,
	};
}

function basePersons(ctx: SandboxContext, propId: string): PersonRecord[] {
	const property = getSearchable(ctx, propId);
	if (!property) return [];
	const rng = new Seeded(`${propId}:persons`);
	const count = rng.int(1, 3);
	const persons: PersonRecord[] = [];
	const lastName = property.Owner.split(' ')[1];
	for (let i = 1; i <= count; i++) {
		const PersonKey = `K${String(propIndex(propId)).padStart(6, '0')}${String.fromCharCode(64 + i)}`;
		const kind = i === 1 && rng.chance(0.1) ? rng.pick(['Company', 'Trust', 'Entity']) : 'Person';
		const first = i === 1 ? property.Owner.split(' ')[0] : rng.pick(NAMES.FIRST);
		persons.push({
			PropID: propId,
			PersonKey,
			isPrimaryContact: i === 1 ? 1 : 0,
			OwnershipRole: i === 1 ? 'Owner' : rng.pick(ROLES),
			PrimaryResidence: property.isSameMailingOrExempt
				? [
						{
							PropID: propId,
							Address: `${property.Address}, ${property.City}, ${property.State} ${property.ZipFive}`,
						},
					]
				: [],
			OtherProperties: rng.chance(0.2)
				? [
						{
							PropID: `P${String(((propIndex(propId) * 7) % PROPERTY_COUNT) + 1).padStart(6, '0')}`,
							Address: 'Other property',
						},
					]
				: [],
			Status: null,
			PersonType: kind,
			FirstName: kind === 'Person' ? first : null,
			MiddleName: kind === 'Person' && rng.chance(0.3) ? rng.pick(['A.', 'J.', 'M.', 'R.']) : null,
			LastName:
				kind === 'Person' ? (i === 1 || rng.chance(0.6) ? lastName : rng.pick(NAMES.LAST)) : null,
			Suffix: kind === 'Person' && rng.chance(0.05) ? 'Jr.' : null,
			EntityName:
				kind === 'Person'
					? null
					: `${lastName} Family ${kind === 'Trust' ? 'Trust' : 'Holdings LLC'}`,
			Age: kind === 'Person' ? String(rng.int(24, 92)) : null,
			Gender: kind === 'Person' ? rng.pick(['M', 'F']) : null,
			MailAddress: [
				{
					PropID: propId,
					Address: property.isSameMailingOrExempt
						? property.Address
						: `PO Box ${rng.int(100, 9999)}`,
				},
			],
			Occupation: kind === 'Person' ? rng.pick(OCCUPATIONS) : null,
			SocialAccounts: [],
			isDeceased: rng.chance(0.04) ? 1 : 0,
		});
	}
	return persons;
}

/** The persons of a property as `account` sees them: contacts only where bought. */
export function getPersons(
	ctx: SandboxContext,
	account: AccountSpec,
	propId: string,
): PersonRecord[] {
	const state = personState(ctx);
	const bought = state.purchases[account.id] ?? {};
	const primary = state.primary[account.id] ?? {};
	const persons = [...basePersons(ctx, propId), ...(state.added[account.id]?.[propId] ?? [])];
	return persons.map((person) => {
		const details = contacts(person.PersonKey);
		const mine = bought[person.PersonKey] ?? {};
		return {
			...person,
			isPrimaryContact: primary[person.PersonKey] ?? person.isPrimaryContact,
			Phone: mine.phone
				? [
						{
							href: `tel:${details.phone}`,
							linktext: details.phone,
							phoneType: details.phoneType,
							display_status: 'purchased',
							status: 'valid',
							source: 'sandbox',
						},
					]
				: [],
			Email: mine.email
				? [
						{
							href: `mailto:${details.email}`,
							linktext: details.email,
							display_status: 'purchased',
							status: 'valid',
							source: 'sandbox',
						},
					]
				: [],
		};
	});
}

/** The person with this key (any property), or undefined. */
export function findPerson(
	ctx: SandboxContext,
	account: AccountSpec,
	personKey: string,
): PersonRecord | undefined {
	const match = /^K(\d{6})[A-C]$/.exec(personKey);
	if (match)
		return getPersons(ctx, account, `P${match[1]}`).find(
			(person) => person.PersonKey === personKey,
		);
	for (const persons of Object.values(personState(ctx).added[account.id] ?? {})) {
		const found = persons.find((person) => person.PersonKey === personKey);
		if (found) return found;
	}
	return undefined;
}

export function revealContact(personKey: string) {
	return contacts(personKey);
}

export type PersonRecordKind = 'bankruptcies' | 'divorces' | 'liens' | 'probates' | 'relatives';

/** The records of a kind for a person: most have none, some one to three. */
export function personRecords(
	personKey: string,
	kind: PersonRecordKind,
): Record<string, unknown>[] {
	const rng = new Seeded(`${personKey}:${kind}`);
	const count = kind === 'relatives' ? rng.int(0, 4) : rng.chance(0.25) ? rng.int(1, 3) : 0;
	return Array.from({ length: count }, (_, i) => {
		const id = `${kind.slice(0, 2).toUpperCase()}${personKey.slice(1)}${i + 1}`;
		switch (kind) {
			case 'bankruptcies':
				return {
					BankruptcyID: id,
					BankruptcyCaseNumber: `${rng.int(10, 26)}-${rng.digits(5)}`,
					BankruptcyRecordingDate: usDate(rng.int(30, 3650)),
					BankruptcyChapter: rng.pick(['7', '11', '13']),
					BankruptcyStatus: rng.pick(['Filed', 'Discharged', 'Dismissed']),
				};
			case 'divorces':
				return {
					DivorceID: id,
					DivorceCaseNumber: `DR-${rng.digits(6)}`,
					DivorceFilingDate: usDate(rng.int(30, 3650)),
					DivorceCourt: 'County Circuit Court',
					DivorceStatus: rng.pick(['Filed', 'Final']),
				};
			case 'liens':
				return {
					LienID: id,
					LienType: rng.pick(['Tax', 'Mechanic', 'Judgment', 'HOA']),
					LienRecordingDate: usDate(rng.int(30, 3650)),
					LienAmount: rng.int(1, 80) * 500,
					LienHolder: rng.pick(['IRS', 'County Treasurer', 'Acme Roofing', 'Lakeside HOA']),
					LienStatus: rng.pick(['Open', 'Released']),
				};
			case 'probates':
				return {
					ProbateID: id,
					ProbateCaseNumber: `PR-${rng.digits(6)}`,
					ProbateFilingDate: usDate(rng.int(30, 3650)),
					ProbateCourt: 'County Probate Court',
					ProbateStatus: rng.pick(['Open', 'Closed']),
				};
			case 'relatives':
				return {
					RelativeKey: `R${personKey.slice(1)}${i + 1}`,
					FirstName: rng.pick(NAMES.FIRST),
					LastName: rng.pick(NAMES.LAST),
					Relationship: rng.pick(['Spouse', 'Child', 'Sibling', 'Parent']),
					Age: String(rng.int(18, 90)),
				};
		}
	});
}
