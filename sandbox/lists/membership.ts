import type { AccountSpec } from '../accounts';
import { compileCriteria, onlyPropIds, type Criterion, type ListMembers } from '../criteria';
import { allSearchable, candidatesFor, getSearchable, INDEXED_FIELDS, type SearchableProperty } from '../data/properties';
import type { SandboxContext } from '../server';
import { own } from '../store';
import { accountLists, hasMember, type StoredList } from './state';

/**
 * Who is in a list. Static and import lists keep their members; a dynamic list's members are what
 * matches its criteria: a monitored one is kept current as data changes (`refreshMonitored`), an
 * unmonitored one is refreshed when its items are read (`readMembers`).
 */
export function membersResolver(ctx: SandboxContext, account: AccountSpec, depth = 0): ListMembers {
	return (listId) => {
		const list = own(accountLists(ctx, account), String(listId));
		if (!list || depth > 3) return undefined;
		return new Set(Object.keys(readMembers(ctx, account, list, depth + 1)));
	};
}

/** PropIDs matching criteria, ascending (properties are kept in PropID order). */
export function findMatches(ctx: SandboxContext, account: AccountSpec, criteria: Criterion[], depth = 0): string[] {
	const members = membersResolver(ctx, account, depth);
	const ids = onlyPropIds(criteria);
	const narrowing = criteria.find((criterion) => (INDEXED_FIELDS as readonly string[]).includes(criterion.name));
	const candidates: SearchableProperty[] = ids
		? ids.map((id) => getSearchable(ctx, id)).filter((p): p is SearchableProperty => p !== undefined)
		: narrowing
			? candidatesFor(ctx, narrowing.name as (typeof INDEXED_FIELDS)[number], narrowing.value)
			: allSearchable(ctx);
	const matches = compileCriteria(criteria, members);
	const found = candidates.filter(matches).map((p) => p.PropID);
	return ids ? found.sort() : found;
}

/** Recomputes a dynamic list from its criteria; returns the PropIDs that entered it. */
export function recompute(ctx: SandboxContext, account: AccountSpec, list: StoredList, depth = 0): string[] {
	if (list.ListType !== 'dynamic' || !list.Criteria) return [];
	const matches = findMatches(ctx, account, list.Criteria, depth);
	const now = new Date().toISOString();
	const next: Record<string, string> = {};
	const entered: string[] = [];
	for (const propId of matches) {
		next[propId] = list.members[propId] ?? now;
		if (!hasMember(list, propId)) entered.push(propId);
	}
	list.members = next;
	return entered;
}

/** The members as a read sees them: an unmonitored dynamic list is refreshed first. */
export function readMembers(ctx: SandboxContext, account: AccountSpec, list: StoredList, depth = 0): Record<string, string> {
	if (list.ListType === 'dynamic' && !list.isMonitored) {
		recompute(ctx, account, list, depth);
		ctx.store.save();
	}
	return list.members;
}

/** For the criteria engine's InList: the PropIDs of a list of this account, or undefined. */
export function listPropIds(ctx: SandboxContext, account: AccountSpec, listId: number): string[] | undefined {
	const set = membersResolver(ctx, account)(listId);
	return set ? [...set] : undefined;
}
