import type { AccountSpec } from '../accounts';
import { notFound } from '../errors';
import type { SandboxContext } from '../types';
import { own } from '../store';
import type { Criterion } from '../criteria';
import type {
	AutomationFields,
	ListType,
	PersonStatus,
	PropertyStatus,
} from '../../nodes/PropRadar/shared/vocabulary';

/** The lists, automations, imports and per-property user data of every account. */
export interface ImportItem {
	ListID: number;
	ListImportItemID: number;
	[field: string]: unknown;
	PropertyStatus: PropertyStatus;
	PersonStatus: PersonStatus;
	MatchScore: number;
	PropID: string | null;
	PersonKey: string | null;
	/** What the import changed, so that a delete can revert it. */
	revert?: { primaryOf?: string; previousPrimary?: string; addedPerson?: string };
}

export interface StoredList {
	ListID: number;
	ListName: string;
	ListType: ListType;
	isMonitored: number;
	ImportSource?: string;
	ImportMatchThreshold?: number;
	ImportType?: string;
	ImportContactOptions?: { add_as_primary_contact?: boolean; set_as_primary_contact?: boolean };
	GroupName: string;
	DisplayOrder: number;
	Criteria?: Criterion[];
	/** PropID -> when it was added (ISO). */
	members: Record<string, string>;
	CreatedAt: string;
	LastViewed: string | null;
	MonitoringStartedOn: string | null;
	automation: AutomationFields;
	imports: ImportItem[];
}

/** Per account and property: what the user (or an automation) saved about it. */
export interface UserPropertyData {
	InterestLevel?: number;
	StatusLevel?: number;
	hasPhotos?: number;
	hasNotes?: number;
	hasAnalysis?: number;
	hasDocs?: number;
	MostRecentCall?: string;
	MostRecentText?: string;
	MostRecentVoicemail?: string;
	MostRecentDirectMail?: string;
	MostRecentEmail?: string;
}

export interface ListsState {
	nextListId: number;
	nextImportItemId: number;
	/** account id -> ListID -> list */
	lists: Record<string, Record<string, StoredList>>;
	userData: Record<string, Record<string, UserPropertyData>>;
}

export function listsState(ctx: SandboxContext): ListsState {
	return ctx.store.slice<ListsState>('lists', () => ({
		nextListId: 1,
		nextImportItemId: 1,
		lists: {},
		userData: {},
	}));
}

export function accountLists(
	ctx: SandboxContext,
	account: AccountSpec,
): Record<string, StoredList> {
	const state = listsState(ctx);
	return (state.lists[account.id] ??= {});
}

/** The list, or 404 when it does not exist or belongs to another account. */
export function getList(
	ctx: SandboxContext,
	account: AccountSpec,
	listId: number | string,
): StoredList {
	const list = own(accountLists(ctx, account), String(listId));
	if (!list) throw notFound();
	return list;
}

/** The list with this id in any account, with the account id (for the control routes). */
export function findListAnywhere(
	ctx: SandboxContext,
	listId: number,
): { accountId: string; list: StoredList } | undefined {
	for (const [accountId, lists] of Object.entries(listsState(ctx).lists)) {
		const list = own(lists, String(listId));
		if (list) return { accountId, list };
	}
	return undefined;
}

export function userData(ctx: SandboxContext, accountId: string, propId: string): UserPropertyData {
	const state = listsState(ctx);
	const byProp = (state.userData[accountId] ??= {});
	return (byProp[propId] ??= {});
}

export function peekUserData(
	ctx: SandboxContext,
	accountId: string,
	propId: string,
): UserPropertyData {
	return listsState(ctx).userData[accountId]?.[propId] ?? {};
}

/** Whether the property is in the list (an own-property check: a PropID comes from the client). */
export function hasMember(list: StoredList, propId: string): boolean {
	return Object.hasOwn(list.members, propId);
}

export const idList = (value: string): string[] =>
	value
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);
