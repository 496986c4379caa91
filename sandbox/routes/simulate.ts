import { DELIVERY_TRIGGER_TYPES } from '../../nodes/PropRadar/shared/vocabulary';
import { ACCOUNTS } from '../accounts';
import {
	addProperty,
	applyPropertyChange,
	allSearchable,
	getSearchable,
	type SearchableProperty,
} from '../data/properties';
import { usDate } from '../data/random';
import { badRequest, notFound } from '../errors';
import { objectBody } from '../http';
import { fireEvents, type ListEvent } from '../lists/automations';
import { deliveryLog, settleDeliveries } from '../webhooks/delivery';
import { findMatches, recompute } from '../lists/membership';
import { findListAnywhere, hasMember, listsState } from '../lists/state';
import type { RouteModule, SandboxContext } from '../types';
import { own } from '../store';

/**
 * Simulated events (control routes, no token): a property changes, or a new property matches a
 * list, so that automations fire. Each answers once the webhook deliveries it caused have settled.
 */
const CHANGE_KINDS = ['listing', 'foreclosure', 'transfer', 'price', 'loan'] as const;
type ChangeKind = (typeof CHANGE_KINDS)[number];

const NEXT_LISTING: Record<string, string> = {
	Active: 'Pending',
	Pending: 'Sold',
	Sold: 'Active',
	Expired: 'Active',
	Withdrawn: 'Active',
};
const NEXT_STAGE: Record<string, string> = {
	Preforeclosure: 'Auction',
	Auction: 'Bank Owned',
	'Bank Owned': 'Preforeclosure',
};

function changeOf(
	property: SearchableProperty,
	kind: ChangeKind,
	to: unknown,
): { patch: Partial<SearchableProperty>; labels: string[] } {
	switch (kind) {
		case 'listing': {
			const next =
				typeof to === 'string' ? to : (own(NEXT_LISTING, property.ListingStatus ?? '') ?? 'Active');
			return {
				patch: {
					ListingStatus: next,
					isListedForSale: ['Active', 'Pending'].includes(next) ? 1 : 0,
					ListingPrice: property.ListingPrice ?? property.AVM,
				},
				labels: [`Listing Status:${property.ListingStatus ?? 'None'}:${next}`],
			};
		}
		case 'foreclosure': {
			const next =
				typeof to === 'string'
					? to
					: (own(NEXT_STAGE, property.ForeclosureStage ?? '') ?? 'Preforeclosure');
			return {
				patch: { inForeclosure: 1, ForeclosureStage: next },
				labels: [`Foreclosure Status:${property.ForeclosureStage ?? 'None'}:${next}`],
			};
		}
		case 'transfer': {
			const date = usDate(-Math.floor((Date.now() - Date.UTC(2026, 10, 1)) / 86_400_000));
			const value = typeof to === 'number' ? to : Math.round(property.AVM * 1.02);
			return {
				patch: {
					LastTransferRecDate: date,
					LastTransferValue: value,
					inForeclosure: 0,
					ForeclosureStage: null,
					isListedForSale: 0,
					ListingStatus: 'Sold',
				},
				labels: [
					`Last Transfer Date:${property.LastTransferRecDate ?? 'None'}:${date}`,
					`Last Transfer Value:${property.LastTransferValue ?? 'None'}:${value}`,
				],
			};
		}
		case 'price': {
			const old = property.ListingPrice ?? property.AVM;
			const next = typeof to === 'number' ? to : Math.round(old * 0.95);
			return { patch: { ListingPrice: next }, labels: [`Listing Price:${old}:${next}`] };
		}
		case 'loan': {
			// A new loan of `to` dollars (default a fifth of the AVM) is recorded against the property.
			if (to !== undefined && !(typeof to === 'number' && Number.isFinite(to) && to > 0))
				throw badRequest(
					'Invalid to',
					'to: the amount of the new loan, a positive number of dollars',
				);
			const amount =
				typeof to === 'number' ? to : Math.max(1000, Math.round(property.AVM / 5 / 1000) * 1000);
			const balance = property.TotalLoanBalance + amount;
			const equity = property.AVM - balance;
			return {
				patch: {
					TotalLoanBalance: balance,
					AvailableEquity: equity,
					EquityPercent: Math.round((equity / property.AVM) * 100),
					isFreeAndClear: 0,
				},
				labels: [`Total Loan Balance:${property.TotalLoanBalance}:${balance}`],
			};
		}
	}
}

/** Fires Change events in every list holding the property, and New Match events where it now matches. */
function propagate(
	ctx: SandboxContext,
	propId: string,
	changes: string[] | undefined,
): Array<{ ListID: number; type: string }> {
	const fired: Array<{ ListID: number; type: string }> = [];
	for (const account of ACCOUNTS) {
		for (const list of Object.values(listsState(ctx).lists[account.id] ?? {})) {
			const wasMember = hasMember(list, propId);
			const entered =
				list.ListType === 'dynamic' && list.isMonitored ? recompute(ctx, account, list) : [];
			const events: ListEvent[] = entered.map((id) => ({
				type: DELIVERY_TRIGGER_TYPES.newMatch,
				propId: id,
			}));
			if (changes && wasMember && hasMember(list, propId))
				events.push({ type: DELIVERY_TRIGGER_TYPES.change, propId, changes });
			for (const event of events) fired.push({ ListID: list.ListID, type: event.type });
			fireEvents(ctx, account.id, list, events);
		}
	}
	ctx.store.save();
	return fired;
}

export const simulateRoutes: RouteModule = (app, ctx) => {
	app.post('/_sandbox/simulate/change', async (request) => {
		const body = objectBody(request.body);
		const propId = String(body.PropID ?? '');
		const kind = body.change as ChangeKind;
		if (!CHANGE_KINDS.includes(kind))
			throw badRequest('Invalid change', `change must be one of ${CHANGE_KINDS.join(', ')}`);
		const property = getSearchable(ctx, propId);
		if (!property) throw notFound();
		const { patch, labels } = changeOf(property, kind, body.to);
		const firstDelivery = deliveryLog(ctx).length;
		applyPropertyChange(ctx, propId, patch);
		const events = propagate(ctx, propId, labels);
		await settleDeliveries();
		return {
			PropID: propId,
			changes: labels,
			events,
			deliveries: deliveryLog(ctx).slice(firstDelivery),
		};
	});

	app.post('/_sandbox/simulate/new-match', async (request) => {
		const body = objectBody(request.body);
		const listId = Number(body.ListID);
		const found = findListAnywhere(ctx, listId);
		if (!found) throw notFound();
		const { accountId, list } = found;
		const account = ACCOUNTS.find((candidate) => candidate.id === accountId)!;
		const firstDelivery = deliveryLog(ctx).length;
		let propId: string;
		let events: Array<{ ListID: number; type: string }>;
		if (list.ListType === 'static') {
			const candidate = allSearchable(ctx).find(
				(p) => !hasMember(list, p.PropID) && (!body.State || p.State === body.State),
			);
			if (!candidate)
				throw badRequest('No property left', 'Every property is in this list already');
			propId = candidate.PropID;
			list.members[propId] = new Date().toISOString();
			fireEvents(ctx, accountId, list, [{ type: DELIVERY_TRIGGER_TYPES.newMatch, propId }]);
			events = [{ ListID: list.ListID, type: DELIVERY_TRIGGER_TYPES.newMatch }];
		} else if (list.ListType === 'dynamic' && list.Criteria) {
			const template = findMatches(ctx, account, list.Criteria)[0];
			if (!template)
				throw badRequest(
					'No template',
					"No property matches this list's criteria, so none can be cloned to match it",
				);
			const { PropID: _ignored, ...fields } = getSearchable(ctx, template)!;
			void _ignored;
			propId = addProperty(ctx, {
				...fields,
				Address: `${100 + allSearchable(ctx).length - 60_000} New Match Way`,
			}).PropID;
			events = propagate(ctx, propId, undefined);
		} else {
			throw badRequest(
				'Not supported',
				'New matches can be simulated for static and dynamic lists; import lists grow by importing',
			);
		}
		await settleDeliveries();
		return { PropID: propId, events, deliveries: deliveryLog(ctx).slice(firstDelivery) };
	});
};
