import type { FastifyInstance } from 'fastify';

import type { AccountSpec } from '../accounts';
import { compileCriteria, onlyPropIds, type Criterion, type ListMembers } from '../criteria';
import {
	allSearchable,
	candidatesFor,
	getSearchable,
	INDEXED_FIELDS,
	type SearchableProperty,
} from '../data/properties';
import type { SandboxContext } from '../types';
import { own } from '../store';
import { accountLists, hasMember, type StoredList } from './state';

/**
 * Who is in a list. Static and import lists keep their members; a dynamic list's members are what
 * matches its criteria: a monitored one is kept current as data changes (`refreshMonitored`), an
 * unmonitored one is refreshed when it is read after something it may depend on changed
 * (`readMembers`): any write to the sandbox (properties, lists, their members) or a new day
 * (relative dates in criteria), never on every read.
 */

/**
 * Counts the writes of every sandbox in this process: each request that is not a read, when it
 * starts and when it ends. (Shared by all sandboxes of a process: a write to one only makes the
 * others compute again, never read stale members.)
 */
let writes = 0;

export function trackWrites(app: FastifyInstance): void {
	const count = async (request: { method: string }) => {
		if (request.method !== 'GET' && request.method !== 'HEAD') writes++;
	};
	app.addHook('onRequest', count);
	app.addHook('onResponse', count);
}

/** What a dynamic list's members were computed from: the writes so far and the day. */
const dataStamp = () => `${writes} ${new Date().toISOString().slice(0, 10)}`;
const counted = new WeakMap<
	StoredList,
	{
		writes: number;
		members: Record<string, string>;
		lastViewed: string | null | undefined;
		total: number;
		newSinceLastViewed: number;
	}
>();

/** How many members a list has, and how many were added since it was last viewed; counted again only after a write or a view. */
export function memberCounts(list: StoredList): { total: number; newSinceLastViewed: number } {
	const cached = counted.get(list);
	if (
		cached &&
		cached.writes === writes &&
		cached.members === list.members &&
		cached.lastViewed === list.LastViewed
	)
		return cached;
	const added = Object.values(list.members);
	const lastViewed = list.LastViewed;
	const counts = {
		writes,
		members: list.members,
		lastViewed,
		total: added.length,
		newSinceLastViewed: added.filter((at) => !lastViewed || at > lastViewed).length,
	};
	counted.set(list, counts);
	return counts;
}
const refreshedAt = new WeakMap<StoredList, string>();
const ordered = new WeakMap<
	StoredList,
	{ stamp: string; members: Record<string, string>; entries: Array<[string, string]> }
>();
export function membersResolver(ctx: SandboxContext, account: AccountSpec, depth = 0): ListMembers {
	return (listId) => {
		const list = own(accountLists(ctx, account), String(listId));
		if (!list || depth > 3) return undefined;
		return new Set(Object.keys(readMembers(ctx, account, list, depth + 1)));
	};
}

/** PropIDs matching criteria, ascending (properties are kept in PropID order). */
export function findMatches(
	ctx: SandboxContext,
	account: AccountSpec,
	criteria: Criterion[],
	depth = 0,
): string[] {
	const members = membersResolver(ctx, account, depth);
	const ids = onlyPropIds(criteria);
	const narrowing = criteria.find((criterion) =>
		(INDEXED_FIELDS as readonly string[]).includes(criterion.name),
	);
	const candidates: SearchableProperty[] = ids
		? ids
				.map((id) => getSearchable(ctx, id))
				.filter((p): p is SearchableProperty => p !== undefined)
		: narrowing
			? candidatesFor(ctx, narrowing.name as (typeof INDEXED_FIELDS)[number], narrowing.value)
			: allSearchable(ctx);
	const matches = compileCriteria(criteria, members);
	const found = candidates.filter(matches).map((p) => p.PropID);
	return ids ? found.sort() : found;
}

/** Recomputes a dynamic list from its criteria; returns the PropIDs that entered it. */
export function recompute(
	ctx: SandboxContext,
	account: AccountSpec,
	list: StoredList,
	depth = 0,
): string[] {
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

/** The members as a read sees them: an unmonitored dynamic list is refreshed first when anything changed since. */
export function readMembers(
	ctx: SandboxContext,
	account: AccountSpec,
	list: StoredList,
	depth = 0,
): Record<string, string> {
	if (list.ListType === 'dynamic' && !list.isMonitored) {
		const stamp = dataStamp();
		if (refreshedAt.get(list) !== stamp) {
			recompute(ctx, account, list, depth);
			refreshedAt.set(list, stamp);
			ctx.store.save();
		}
	}
	return list.members;
}

/** The members in the order pages list them (oldest first, then by PropID), sorted again only after a write. */
export function orderedMembers(
	ctx: SandboxContext,
	account: AccountSpec,
	list: StoredList,
): Array<[string, string]> {
	const members = readMembers(ctx, account, list);
	const stamp = dataStamp();
	const cached = ordered.get(list);
	if (cached && cached.stamp === stamp && cached.members === members) return cached.entries;
	const entries = Object.entries(members).sort(([a, addedA], [b, addedB]) =>
		addedA < addedB ? -1 : addedA > addedB ? 1 : a < b ? -1 : a > b ? 1 : 0,
	);
	ordered.set(list, { stamp, members, entries });
	return entries;
}

/** For the criteria engine's InList: the PropIDs of a list of this account, or undefined. */
export function listPropIds(
	ctx: SandboxContext,
	account: AccountSpec,
	listId: number,
): string[] | undefined {
	const set = membersResolver(ctx, account)(listId);
	return set ? [...set] : undefined;
}
