import type { AccountSpec } from '../accounts';
import { allSearchable, getSearchable, PROPERTY_COUNT } from '../data/properties';
import {
	findPerson,
	getPersons,
	personState,
	revealContact,
	type PersonRecord,
} from '../data/persons';
import type { SandboxContext } from '../types';
import type { ImportItem, StoredList } from './state';
import { IMPORT_RECORD_FIELDS } from '../../nodes/PropRadar/shared/vocabulary';

/**
 * Import matching: an imported record is matched to a property (address, normalised; APN with
 * County) and to a person (e-mail, phone, or name at the property), with a MatchScore 0-100 and the
 * property and person statuses of the lists document.
 */

const WORDS = new Map(
	Object.entries({
		street: 'st',
		avenue: 'ave',
		road: 'rd',
		drive: 'dr',
		lane: 'ln',
		court: 'ct',
		boulevard: 'blvd',
		north: 'n',
		south: 's',
		east: 'e',
		west: 'w',
	}),
);

/** `123 N. Oak Street, Apt 4` -> `123 n oak st` (unit dropped, words abbreviated, case and punctuation ignored). */
export function normaliseAddress(address: string): string {
	return address
		.toLowerCase()
		.replace(/[.,#]/g, ' ')
		.replace(/\b(apt|unit|suite|ste)\b.*$/, '')
		.split(/\s+/)
		.filter(Boolean)
		.map((word) => WORDS.get(word) ?? word)
		.join(' ');
}

interface Indexes {
	byAddress: Map<string, string[]>;
	byApn: Map<string, string>;
}

let indexes: Indexes | undefined;

function buildIndexes(ctx: SandboxContext): Indexes {
	if (!indexes) {
		const byAddress = new Map<string, string[]>();
		const byApn = new Map<string, string>();
		for (const property of allSearchable(ctx).slice(0, PROPERTY_COUNT)) {
			const key = normaliseAddress(property.Address);
			byAddress.set(key, [...(byAddress.get(key) ?? []), property.PropID]);
			byApn.set(
				`${property.APN.replace(/\D/g, '')}|${property.County.toLowerCase()}`,
				property.PropID,
			);
		}
		indexes = { byAddress, byApn };
	}
	return indexes;
}

function digits(text: unknown): string {
	return String(text ?? '').replace(/\D/g, '');
}

interface PropertyMatch {
	propId: string;
	score: number;
}

function matchProperty(
	ctx: SandboxContext,
	record: Record<string, string>,
): PropertyMatch | undefined {
	const { byAddress, byApn } = buildIndexes(ctx);
	if (record.APN && record.County) {
		const propId = byApn.get(`${digits(record.APN)}|${record.County.toLowerCase()}`);
		if (propId) return { propId, score: 95 };
	}
	if (!record.Address) return undefined;
	const candidates = byAddress.get(normaliseAddress(record.Address)) ?? [];
	let best: PropertyMatch | undefined;
	for (const propId of candidates) {
		const property = getSearchable(ctx, propId)!;
		let score = 60;
		if (record.ZipFive && Number(record.ZipFive) === property.ZipFive) score += 40;
		else if (record.City && record.City.toLowerCase() === property.City.toLowerCase()) score += 25;
		if (record.State && record.State.toUpperCase() !== property.State) score -= 30;
		if (!best || score > best.score) best = { propId, score };
	}
	return best;
}

function personByContact(
	ctx: SandboxContext,
	account: AccountSpec,
	record: Record<string, string>,
): PersonRecord | undefined {
	const email = /^(k\d{6}[a-c])@mail\.example$/i.exec(record.Email ?? '');
	if (email) return findPerson(ctx, account, email[1].toUpperCase());
	return undefined;
}

function nameMatches(person: PersonRecord, record: Record<string, string>): boolean {
	const full = (record.FullName ?? `${record.FirstName ?? ''} ${record.LastName ?? ''}`)
		.trim()
		.toLowerCase();
	if (!full) return false;
	const personName = `${person.FirstName ?? ''} ${person.LastName ?? ''}`.trim().toLowerCase();
	return (
		personName === full ||
		(!!person.EntityName && String(person.EntityName).toLowerCase() === full) ||
		(!!record.LastName &&
			String(person.LastName ?? '').toLowerCase() === record.LastName.toLowerCase() &&
			String(person.FirstName ?? '').toLowerCase() === String(record.FirstName ?? '').toLowerCase())
	);
}

function phoneMatches(person: PersonRecord, record: Record<string, string>): boolean {
	return !!record.Phone && digits(record.Phone).endsWith(revealContact(person.PersonKey).phone);
}

/** Matches one record into the list; may add or promote a primary contact (import options). */
export function matchRecord(
	ctx: SandboxContext,
	account: AccountSpec,
	list: StoredList,
	record: Record<string, string>,
	itemId: number,
): ImportItem {
	const threshold = list.ImportMatchThreshold ?? 80;
	const options = list.ImportContactOptions ?? {};
	let propertyMatch = list.ImportType === 'person' ? undefined : matchProperty(ctx, record);
	let person: PersonRecord | undefined;
	let personScore = 0;
	const byContact = personByContact(ctx, account, record);
	if (byContact && (!propertyMatch || byContact.PropID === propertyMatch.propId)) {
		person = byContact;
		personScore = 100;
		propertyMatch ??= { propId: byContact.PropID, score: 100 };
	}
	if (list.ImportType === 'person' && !propertyMatch) propertyMatch = matchProperty(ctx, record);
	const item: ImportItem = {
		ListID: list.ListID,
		ListImportItemID: itemId,
		...Object.fromEntries(
			IMPORT_RECORD_FIELDS.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]),
		),
		PropertyStatus: 'Not Found',
		PersonStatus: 'Not Found',
		MatchScore: 0,
		PropID: null,
		PersonKey: null,
	};
	if (!propertyMatch) return item;
	item.MatchScore = Math.max(0, Math.min(100, propertyMatch.score));
	if (item.MatchScore < threshold) {
		item.PropertyStatus = 'Pending';
		item.PropID = propertyMatch.propId;
		return item;
	}
	item.PropertyStatus = 'Matched';
	item.PropID = propertyMatch.propId;
	const persons = getPersons(ctx, account, propertyMatch.propId);
	person ??= persons.find(
		(candidate) => nameMatches(candidate, record) || phoneMatches(candidate, record),
	);
	if (person) personScore ||= 85;
	const state = personState(ctx);
	const primary = (state.primary[account.id] ??= {});
	const hasName = !!(record.FullName || record.FirstName || record.LastName);
	if (person) {
		item.PersonKey = person.PersonKey;
		if (person.isPrimaryContact) item.PersonStatus = 'Matched Primary';
		else if (options.set_as_primary_contact) {
			const previous = persons.find((candidate) => candidate.isPrimaryContact);
			if (previous) primary[previous.PersonKey] = 0;
			primary[person.PersonKey] = 1;
			item.PersonStatus = 'Matched Set as Primary';
			item.revert = { primaryOf: person.PersonKey, previousPrimary: previous?.PersonKey };
		} else item.PersonStatus = 'Matched';
		item.MatchScore = Math.round((item.MatchScore + personScore) / 2);
	} else if (hasName && options.add_as_primary_contact) {
		const added = (state.added[account.id] ??= {});
		const key = `I${String(itemId).padStart(6, '0')}`;
		const previous = persons.find((candidate) => candidate.isPrimaryContact);
		if (previous) primary[previous.PersonKey] = 0;
		const [first, ...rest] = (record.FullName ?? '').split(' ');
		(added[propertyMatch.propId] ??= []).push({
			PropID: propertyMatch.propId,
			PersonKey: key,
			isPrimaryContact: 1,
			OwnershipRole: 'Owner',
			Status: 'added',
			PersonType: 'Person',
			FirstName: record.FirstName ?? first ?? null,
			LastName: record.LastName ?? (rest.join(' ') || null),
		});
		item.PersonKey = key;
		item.PersonStatus = 'Added as Primary';
		item.revert = { addedPerson: key, previousPrimary: previous?.PersonKey };
	}
	return item;
}

/** Undoes what an import item changed (the lists document: deleting a match reverts primary-contact changes). */
export function revertItem(ctx: SandboxContext, account: AccountSpec, item: ImportItem): void {
	const state = personState(ctx);
	const primary = (state.primary[account.id] ??= {});
	if (item.revert?.primaryOf) delete primary[item.revert.primaryOf];
	if (item.revert?.previousPrimary) delete primary[item.revert.previousPrimary];
	if (item.revert?.addedPerson && item.PropID) {
		const added = state.added[account.id]?.[item.PropID];
		if (added)
			state.added[account.id][item.PropID] = added.filter(
				(person) => person.PersonKey !== item.revert!.addedPerson,
			);
	}
	item.revert = undefined;
}
