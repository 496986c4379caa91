import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { ApiEnvelope, ApiRequest, AutomationRecord } from '../transport';
import { apiRequest, chargedNothing, formatCents, getConnection, readCents, toNodeError } from '../transport';
import { onceForEveryItem, readChoice } from './parameters';
import { LIST_PRICES_CENTS, recordsCharged, type PriceKind } from './prices';

/**
 * The one home of money (docs/money.md). Every charging operation offers "Preview Cost (Free)" or
 * "Purchase" with a Max Cost for the whole node run, bounded by the credential's spending ceiling.
 * A purchase is quoted first with `Purchase=0`, held against the cap at full price (every record
 * at its list price, as if no free export credits were left, so credits used up by someone else
 * before the purchase cannot take the run past the cap), and sent once with `Purchase=1`, never
 * again. Only a definite refusal by the service (a 4xx with its error object) means nothing was
 * charged; after any other failure of a purchase the run keeps what it held as spent and buys
 * nothing more. Every bought record carries `_charge`, what its purchase cost.
 */
export type ChargeMode = 'preview' | 'purchase';

export const PURCHASE_NOTICE =
	'Purchases are charged and non-refundable. This node never repeats a purchase; with n8n\'s "Retry On Fail" on (node settings) it refuses to purchase, since a retry would send a purchase that may already have been charged again. In the editor, Execute step runs this node again, and buys again, unless its output is pinned.';

const MAX_COST_HELP =
	'Most this node may spend in one run, all input items together: one value for the run (an expression that differs between items is refused). Every purchase is quoted first for free and counted at full price, as if no free export credits were left, so the cap holds even when credits run out before the purchase; one that does not fit what is left is refused and nothing is charged. The preview tells the Max Cost a purchase needs (maxCostNeeded). 0 buys nothing.';

export function chargeProperties(show: Record<string, string[]>, what: string): INodeProperties[] {
	return [
		{
			displayName: 'Charge Mode',
			name: 'chargeMode',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show },
			options: [
				{
					name: 'Preview Cost (Free)',
					value: 'preview',
					description: `Ask what ${what} would cost. Nothing is bought or charged; the output is one item with the quote.`,
				},
				{
					name: 'Purchase',
					value: 'purchase',
					description: `Buy ${what}, charged per record and non-refundable, up to Max Cost`,
				},
			],
			default: 'preview',
		},
		{
			displayName: 'Max Cost (USD)',
			name: 'maxCost',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			displayOptions: { show: { ...show, chargeMode: ['purchase'] } },
			default: 0,
			hint: '0 buys nothing. The preview tells the Max Cost a purchase needs (maxCostNeeded).',
			description: MAX_COST_HELP,
		},
		{
			displayName: PURCHASE_NOTICE,
			name: 'purchaseNotice',
			type: 'notice',
			displayOptions: { show: { ...show, chargeMode: ['purchase'] } },
			default: '',
		},
	];
}

/** Charge Mode as every charging operation has it (its values are the same for all). */
const CHARGE_MODE = chargeProperties({}, 'the records')[0];

const money = (cents: number) => `$${formatCents(cents)}`;

/** Max Cost of an item, in cents, or an error naming the field. */
function readMaxCost(context: IExecuteFunctions, itemIndex: number): number {
	const raw = onceForEveryItem(context, 'maxCost', ['maxCost'], itemIndex, () => context.getNodeParameter('maxCost', itemIndex, 0) as unknown);
	const cents = readCents(typeof raw === 'string' && raw.trim() === '' ? 0 : raw);
	if (cents === undefined) {
		throw new NodeOperationError(context.getNode(), `Max Cost: must be an amount in USD, 0 or more with at most two decimals (such as 2.50), got "${String(raw)}"`, {
			itemIndex,
			description: 'Nothing was sent and nothing was charged.',
		});
	}
	return cents;
}

/**
 * The credential's Spending Ceiling per Execution in cents; undefined when none is set (0 or
 * empty). One that is no amount is refused (money inputs fail closed), saying what was done so far
 * (`done`), for the node and the trigger alike.
 */
export function readCeiling(context: Pick<IExecuteFunctions, 'getNode'>, raw: unknown, done = 'Nothing was sent and nothing was charged.'): number | undefined {
	if (raw === undefined || raw === null || raw === '' || raw === 0) return undefined;
	const cents = readCents(raw);
	if (cents === undefined) {
		throw new NodeOperationError(context.getNode(), `Spending Ceiling per Execution of the PropRadar credential: must be an amount in USD, 0 (no ceiling) or more with at most two decimals, got "${String(raw)}"`, {
			description: `${done} Ask the credential's owner to correct it.`,
		});
	}
	return cents === 0 ? undefined : cents;
}

/** Money counted against one limit: what was spent (or may have been) and what is held for purchases under way. */
export class Tally {
	spentCents = 0;

	heldCents = 0;

	touchedAt = Date.now();

	/** Keeps `spentCents` where it outlives this process, after each change (the ceiling's tally). */
	keepSpent?: () => void;

	constructor(readonly capCents: number) {}

	get leftCents(): number {
		return this.capCents - this.spentCents - this.heldCents;
	}

	describe(): string {
		return `has ${money(this.leftCents)} of ${money(this.capCents)} left (${money(this.spentCents)} spent, ${money(this.heldCents)} held for purchases under way)`;
	}
}

/**
 * The credential's ceiling of each running execution, in this process: every PropRadar node run of
 * one execution with one credential (several nodes, a loop, an AI agent's tool calls) draws on the
 * same tally, held purchases included. Tallies not used for a day are dropped.
 */
const ceilingTallies = new Map<string, Tally>();
const TALLY_IDLE_MS = 24 * 60 * 60 * 1000;

/**
 * An execution can also go on in another process: a Wait node, or any node that waits for a
 * webhook, puts it in n8n's database, and it is resumed later by whichever process takes it (a
 * queue-mode worker, or n8n after a restart), where no tally of it exists. So what a credential's
 * ceiling has spent in an execution is also kept in the execution's custom data (n8n saves it with
 * the execution and hands it back on resuming), under this key and the credential's ID, in cents.
 */
const SPENT_KEY_PREFIX = 'propradar_spent_';

/**
 * The execution's custom data; none in a context without the execution's data (n8n's getter throws
 * there), where nothing is kept either. Early 2.x releases (2.0.0 among them) give nodes no
 * `customData` of their own: there it is the same store, as expressions reach it
 * (`$execution.customData`).
 */
function executionCustomData(context: IExecuteFunctions): IExecuteFunctions['customData'] | undefined {
	try {
		return context.customData ?? (context.getWorkflowDataProxy(0).$execution as { customData?: IExecuteFunctions['customData'] } | undefined)?.customData;
	} catch {
		return undefined;
	}
}

function spentKey(credentialId: string): string {
	return `${SPENT_KEY_PREFIX}${credentialId.replace(/[^A-Za-z0-9_]/g, '_')}`.slice(0, 50);
}

/**
 * What the execution's custom data says the ceiling has spent: 0 when nothing is kept, and, when
 * what is kept is no amount (someone else wrote it), all of the ceiling, so that nothing more is
 * bought (money inputs fail closed).
 */
function keptSpent(context: IExecuteFunctions, key: string, ceilingCents: number): number {
	const kept = executionCustomData(context)?.get(key);
	if (kept === undefined) return 0;
	const cents = Number(kept);
	return Number.isSafeInteger(cents) && cents >= 0 ? cents : ceilingCents;
}

/** n8n's MCP Server Trigger: every tool call it takes is an execution of its own. */
const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';

/**
 * The execution whose tally the ceiling draws on: the execution itself, or, in a sub-workflow
 * (an Execute Workflow node, an AI agent's workflow tool), the execution that called it, so that
 * an agent calling a workflow tool again and again shares one ceiling. Undefined where n8n runs
 * the node without an execution that holds all the calls of one agent run: no execution at all
 * (n8n's Agents module, the MCP Server Trigger in n8n's regular mode), or one execution per call
 * (the MCP Server Trigger in queue mode).
 */
function ceilingExecution(context: IExecuteFunctions): string | undefined {
	const executionId = context.getExecutionId();
	// n8n before 2.x gives no execution context.
	const runtime = typeof context.getExecutionContext === 'function' ? context.getExecutionContext() : undefined;
	if (!executionId || runtime?.triggerNode?.type === MCP_TRIGGER) return undefined;
	return runtime?.parentExecutionId ?? executionId;
}

function ceilingTally(context: IExecuteFunctions, ceilingCents: number): Tally {
	const executionId = ceilingExecution(context);
	if (!executionId) {
		throw new NodeOperationError(context.getNode(), 'Purchase refused: no n8n execution holds this call, so the credential\'s spending ceiling cannot count it', {
			description: `The PropRadar credential has a Spending Ceiling per Execution of ${money(ceilingCents)}, which adds up every purchase of one execution. n8n ran this call outside an execution that holds the other calls of the same agent run (n8n's Agents module, and the MCP Server Trigger, run each tool call on its own), so each call would have the whole ceiling. Nothing was sent and nothing was charged. Preview Cost (Free) works here. To buy, give the PropRadar tool to an AI Agent node in a workflow, whose calls share one execution; or the credential's owner may choose No Ceiling, and Max Cost alone bounds each call.`,
		});
	}
	const credential = context.getNode().credentials?.propRadarApi;
	if (!credential) return new Tally(ceilingCents);
	const now = Date.now();
	for (const [key, tally] of ceilingTallies) if (now - tally.touchedAt > TALLY_IDLE_MS) ceilingTallies.delete(key);
	const credentialId = credential.id ?? credential.name;
	const key = `${executionId}\u0000${credentialId}\u0000${ceilingCents}`;
	const tally = ceilingTallies.get(key) ?? new Tally(ceilingCents);
	const kept = spentKey(credentialId);
	tally.spentCents = Math.max(tally.spentCents, keptSpent(context, kept, ceilingCents));
	tally.keepSpent = () => executionCustomData(context)?.set(kept, String(tally.spentCents));
	tally.touchedAt = now;
	ceilingTallies.set(key, tally);
	return tally;
}

/**
 * What one node run may still spend: the node's Max Cost for this run, and the credential's
 * Spending Ceiling for the whole execution (shared with every other run of the execution).
 */
export class SpendBudget {
	private readonly run: Tally;

	private boughtRecords = 0;

	/** What the records bought would have cost at full price, free export credits aside. */
	atFullPriceCents = 0;

	/** Held for purchases whose outcome is unknown, counted as spent. */
	private unconfirmed = 0;

	/** Why this run buys nothing more, once a purchase ended in a way that could not be confirmed. */
	private stopReason: string | undefined;

	constructor(
		maxCostCents: number,
		/** The credential's ceiling of this execution, when the credential has one. */
		private readonly ceiling?: Tally,
	) {
		this.run = new Tally(maxCostCents);
	}

	get maxCostCents(): number {
		return this.run.capCents;
	}

	/** What the run was charged, or may have been (purchases whose outcome is unknown count in full). */
	get spent(): number {
		return this.run.spentCents;
	}

	/** Records the run bought and handed on: they must reach the output whatever happens later. */
	get bought(): number {
		return this.boughtRecords;
	}

	/** The part of `spent` that may or may not have been charged. */
	get unconfirmedCents(): number {
		return this.unconfirmed;
	}

	private get tallies(): Tally[] {
		return this.ceiling ? [this.run, this.ceiling] : [this.run];
	}

	/** Why `cents` does not fit what is left (`needs` says what asks for it), or undefined when it fits. */
	refusalFor(cents: number, needs: string): string | undefined {
		if (this.stopReason) return `This run buys nothing more: ${this.stopReason} Nothing was charged for this item.`;
		if (this.ceiling && cents > this.ceiling.leftCents) {
			return `${needs}, and the PropRadar credential's Spending Ceiling per Execution ${this.ceiling.describe()} in this execution. Nothing was charged. The ceiling is set by the credential's owner; ask them to raise it, or buy fewer records.`;
		}
		if (cents > this.run.leftCents) {
			return `${needs}, and Max Cost ${this.run.describe()} for this run. Nothing was charged. Set Max Cost to at least ${money(this.run.capCents - this.run.leftCents + cents)}, or buy fewer records.`;
		}
		return undefined;
	}

	/** Holds `cents` for a purchase, or says why it does not fit (nothing is charged then). */
	hold(cents: number): string | undefined {
		const refused = this.refusalFor(cents, `This purchase needs up to ${money(cents)} (every record at full price)`);
		if (refused) return refused;
		for (const tally of this.tallies) tally.heldCents += cents;
		return undefined;
	}

	/** A purchase went through: what was held for it becomes what it really cost. */
	settle(heldCents: number, chargedCents: number, records: number): string | undefined {
		for (const tally of this.tallies) {
			tally.heldCents -= heldCents;
			tally.spentCents += chargedCents;
			tally.keepSpent?.();
		}
		this.boughtRecords += records;
		if (chargedCents > heldCents) {
			this.stopReason = `a purchase cost ${money(chargedCents)}, more than the ${money(heldCents)} its quote allowed for.`;
			return `PropRadar charged ${money(chargedCents)} for a purchase quoted at up to ${money(heldCents)}; this run buys nothing more.`;
		}
		return undefined;
	}

	/** The service refused the purchase: nothing was charged. */
	release(heldCents: number): void {
		for (const tally of this.tallies) tally.heldCents -= heldCents;
	}

	/** The purchase may have been charged: what was held for it counts as spent, and the run stops buying. */
	keepUnconfirmed(heldCents: number, what: string): void {
		for (const tally of this.tallies) {
			tally.heldCents -= heldCents;
			tally.spentCents += heldCents;
			tally.keepSpent?.();
		}
		this.unconfirmed += heldCents;
		this.stopReason = `${what} may have been charged (up to ${money(heldCents)}), so nothing more is bought until that is checked.`;
	}
}

/** Builds the budget of a node run from the node's Max Cost (the same for every item) and the credential's ceiling. */
export async function createSpendBudget(context: IExecuteFunctions): Promise<SpendBudget> {
	const maxCostCents = readMaxCost(context, 0);
	const ceilingCents = readCeiling(context, (await getConnection(context)).spendingCeiling);
	return new SpendBudget(maxCostCents, ceilingCents === undefined ? undefined : ceilingTally(context, ceilingCents));
}

/** What the items of one node run share: its spending budget, made when the first purchase needs it. */
export class RunSpending {
	private budgetPromise: Promise<SpendBudget> | undefined;

	private made: SpendBudget | undefined;

	constructor(private readonly context: IExecuteFunctions) {}

	budget(): Promise<SpendBudget> {
		this.budgetPromise ??= createSpendBudget(this.context).then((budget) => (this.made = budget));
		return this.budgetPromise;
	}

	/** Set while the run quotes every item before buying (`quoteWholeRun`): charging operations then only quote. */
	quoting = false;

	/** Records bought in this run so far (0 when nothing was bought). */
	get bought(): number {
		return this.made?.bought ?? 0;
	}

	/** What the run was charged or may have been, in cents, and the part of it whose outcome is unknown. */
	get spentCents(): number {
		return this.made?.spent ?? 0;
	}

	get unconfirmedCents(): number {
		return this.made?.unconfirmedCents ?? 0;
	}

	/** What the records bought so far would have cost at full price, free export credits aside. */
	get atFullPriceCents(): number {
		return this.made?.atFullPriceCents ?? 0;
	}
}

/** A quote (`Purchase=0`) as numbers; a quote that cannot be read refuses the purchase. */
interface Quote {
	cents: number;
	count: number;
	freeRemaining?: number;
	totalResultCount?: number;
}

function readQuote(context: IExecuteFunctions, response: ApiEnvelope, itemIndex: number): Quote {
	const cents = readCents(response?.totalCost);
	const count = response?.resultCount;
	if (cents === undefined || typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
		throw new NodeOperationError(context.getNode(), 'PropRadar\'s quote could not be read', {
			itemIndex,
			description: `The free quote (Purchase=0) came back without a readable totalCost and resultCount (totalCost ${JSON.stringify(response?.totalCost ?? null)}, resultCount ${JSON.stringify(count ?? null)}), so nothing was bought and nothing was charged.`,
		});
	}
	const free = response.quantityFreeRemaining;
	return {
		cents,
		count,
		freeRemaining: typeof free === 'number' && Number.isInteger(free) && free >= 0 ? free : undefined,
		totalResultCount: typeof response.totalResultCount === 'number' ? response.totalResultCount : undefined,
	};
}

/** The price of one record a quote reveals when it covers more records than free credits pay for. */
function revealedPriceCents(kind: PriceKind, quote: Quote): number | undefined {
	const paid = recordsCharged(kind, quote.count) - (quote.freeRemaining ?? 0);
	return paid > 0 ? Math.ceil(quote.cents / paid) : undefined;
}

/** The full price of one record: its list price, or the higher price a quote reveals. */
function fullPriceCents(kind: PriceKind, quote: Quote): number {
	return Math.max(LIST_PRICES_CENTS[kind], revealedPriceCents(kind, quote) ?? 0);
}

/** The most a purchase of what `quote` covers can cost: every record at full price. */
function worstCaseCents(kind: PriceKind, quote: Quote): number {
	return Math.max(quote.cents, recordsCharged(kind, quote.count) * fullPriceCents(kind, quote));
}

/** What a bought record says of its purchase. */
export interface ChargeNote extends IDataObject {
	/** What the purchase (one request) the record came from cost, and how many records it charged. */
	totalCost: string;
	resultCount: number;
	/** What this node run had spent after that purchase. */
	runTotalCost: string;
	/** Set when the run stopped buying before it had everything that was asked for. */
	notice?: string;
}

function chargeMode(context: IExecuteFunctions, spending: RunSpending, itemIndex: number): ChargeMode {
	if (spending.quoting) return 'preview';
	return onceForEveryItem(context, 'chargeMode', ['chargeMode'], itemIndex, () => readChoice<ChargeMode>(context, itemIndex, CHARGE_MODE));
}

/** Refuses, before anything is sent, a purchase that n8n could repeat or whose Max Cost differs by item. */
async function purchaseBudget(context: IExecuteFunctions, spending: RunSpending, itemIndex: number): Promise<SpendBudget> {
	if (context.getNode().retryOnFail === true) {
		throw new NodeOperationError(context.getNode(), 'Purchase refused: "Retry On Fail" is on for this node', {
			itemIndex,
			description: 'n8n\'s Retry On Fail runs the whole node again after a failure, which would send a purchase that may already have been charged a second time. Nothing was sent and nothing was charged. Turn Retry On Fail off in this node\'s settings (the node itself repeats the requests that are safe to repeat), or use Charge Mode "Preview Cost (Free)".',
		});
	}
	const budget = await spending.budget();
	const itemMaxCost = readMaxCost(context, itemIndex);
	if (itemMaxCost !== budget.maxCostCents) {
		throw new NodeOperationError(context.getNode(), `Max Cost: one value for the whole run; the item at index ${itemIndex} gives ${money(itemMaxCost)} where the first item gave ${money(budget.maxCostCents)}`, {
			itemIndex,
			description: 'Max Cost caps the whole run, all items together, so it cannot change from item to item. Nothing was charged for this item. Use a fixed value, or an expression that gives the same value for every item.',
		});
	}
	return budget;
}

/**
 * Before a purchase run of several items buys anything: every item's Max Cost is the same (before
 * anything is sent), and what the free quotes of all items need at full price (`quoteRun`, the preview's run total)
 * fits Max Cost and the credential's ceiling. Otherwise the whole run is refused and nothing is
 * bought, where buying item by item would stop part-way with some items bought.
 */
export async function assertWholeRunFits(context: IExecuteFunctions, spending: RunSpending, itemCount: number, quoteRun: () => Promise<number>): Promise<void> {
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) await purchaseBudget(context, spending, itemIndex);
	const needCents = await quoteRun();
	const budget = await spending.budget();
	const refused = budget.refusalFor(needCents, `This run needs up to ${money(needCents)} for its ${itemCount} items (every record at full price, the run total of the preview)`);
	if (refused) throw refusal(context, `${refused} Nothing was bought: every item was quoted (free) before buying, so that the run does not stop with only some items bought.`);
}

/** A refusal by the budget; without `itemIndex` it is the whole run's. */
function refusal(context: IExecuteFunctions, reason: string, itemIndex?: number): NodeOperationError {
	let message = `Purchase refused: over ${reason.includes('Spending Ceiling per Execution') ? 'the credential\'s spending ceiling' : 'Max Cost'}`;
	if (reason.startsWith('This run buys nothing more')) {
		message = reason.includes('may have been charged')
			? 'Purchase refused: an earlier purchase of this run may have been charged'
			: 'Purchase refused: an earlier purchase of this run cost more than its quote';
	}
	return new NodeOperationError(context.getNode(), message, { itemIndex, description: reason });
}

/** The free quote of a charging request; when it fails before a purchase, the error says nothing was bought. */
async function requestQuote(context: IExecuteFunctions, request: ApiRequest, itemIndex: number, purchasing: boolean): Promise<ApiEnvelope> {
	try {
		return await apiRequest<ApiEnvelope>(context, { ...request, qs: { ...request.qs, Purchase: 0 }, repeatable: true, itemIndex });
	} catch (error) {
		const nodeError = toNodeError(context.getNode(), error, itemIndex);
		if (purchasing) nodeError.description = `${nodeError.description ?? ''} This was the free quote before the purchase: the purchase was not sent, and nothing was bought or charged for it.`.trim();
		throw nodeError;
	}
}

/** The preview of a charging request as one output record: the quote, and the Max Cost its purchase needs (`heldCents`, what the purchase would hold). */
function previewRecord(kind: PriceKind, response: ApiEnvelope, quote: Quote, extra: IDataObject, heldCents = worstCaseCents(kind, quote)): IDataObject {
	return {
		...extra,
		preview: true,
		totalCost: formatCents(quote.cents),
		resultCount: quote.count,
		quantityFreeRemaining: response.quantityFreeRemaining,
		maxCostNeeded: formatCents(heldCents),
		pricePerRecord: formatCents(fullPriceCents(kind, quote)),
	};
}

/**
 * Settles the answer to a purchase against what was held for it (`records`: how many it
 * returned): what it cost, undefined when the answer does not say, and, when the run buys nothing
 * more because of it, the notice that says why.
 */
function settleAnswer(budget: SpendBudget, heldCents: number, response: ApiEnvelope, records: number, what: string): { charged?: number; notice?: string } {
	const charged = readCents(response?.totalCost);
	if (charged === undefined) {
		budget.keepUnconfirmed(heldCents, `${what} whose answer gave no readable totalCost`);
		budget.settle(0, 0, records);
		return { notice: `PropRadar's answer did not say what this purchase cost; up to ${money(heldCents)} is counted as spent and this run buys nothing more.` };
	}
	return { charged, notice: budget.settle(heldCents, charged, records) };
}

interface Bought {
	response: ApiEnvelope;
	note: ChargeNote;
}

/**
 * Buys what `quote` covers with one `Purchase=1` request, held against the budget at full price.
 * A quote of no records buys nothing and sends nothing: what such a purchase could return would
 * have appeared since the quote, and nothing was held for it. A refusal by the cap or by the
 * service, or a purchase that was never sent (its connection could not be made), charges nothing
 * and throws; a failure that may have come after the charge keeps the hold as spent, stops the
 * run's buying, and throws.
 */
async function buy(context: IExecuteFunctions, budget: SpendBudget, kind: PriceKind, quote: Quote, request: ApiRequest, itemIndex: number): Promise<Bought> {
	const held = worstCaseCents(kind, quote);
	const refused = budget.hold(held);
	if (refused) throw refusal(context, refused, itemIndex);
	if (quote.count === 0) {
		budget.release(held);
		return { response: { results: [], totalCost: formatCents(0), resultCount: 0 }, note: { totalCost: formatCents(0), resultCount: 0, runTotalCost: formatCents(budget.spent) } };
	}
	let response: ApiEnvelope;
	try {
		response = await apiRequest<ApiEnvelope>(context, { ...request, qs: { ...request.qs, Purchase: 1 }, repeatable: false, itemIndex });
	} catch (error) {
		if (chargedNothing(error)) budget.release(held);
		else budget.keepUnconfirmed(held, `a purchase (${request.method} ${request.path}) whose answer was lost or failed`);
		throw toNodeError(context.getNode(), error, itemIndex);
	}
	const records = Array.isArray(response?.results) ? response.results.length : 0;
	const { charged, notice } = settleAnswer(budget, held, response, records, `a purchase (${request.method} ${request.path})`);
	budget.atFullPriceCents += recordsCharged(kind, records) * fullPriceCents(kind, quote);
	return {
		response,
		note: { totalCost: charged === undefined ? 'unknown' : formatCents(charged), resultCount: response?.resultCount ?? records, runTotalCost: formatCents(budget.spent), ...(notice ? { notice } : {}) },
	};
}

/** Output records with the note of the purchase they came from. */
export function withCharge(records: IDataObject[], note: ChargeNote): IDataObject[] {
	return records.map((record) => ({ ...record, _charge: note }));
}

function warn(context: IExecuteFunctions, message: string): void {
	context.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
}

export interface ChargedRequestResult {
	mode: ChargeMode;
	/** The answer of the purchase, or of the quote. */
	response: ApiEnvelope;
	/** In preview mode, the quote as an output record. */
	preview?: IDataObject;
	/** In purchase mode, what the purchase cost. */
	note?: ChargeNote;
}

/** One charging request the way the user chose: the free quote only, or the quote and then the purchase. */
export async function chargedRequest(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndex: number,
	kind: PriceKind,
	request: ApiRequest,
): Promise<ChargedRequestResult> {
	const mode = chargeMode(context, spending, itemIndex);
	const budget = mode === 'purchase' ? await purchaseBudget(context, spending, itemIndex) : undefined;
	const response = await requestQuote(context, request, itemIndex, budget !== undefined);
	const quote = readQuote(context, response, itemIndex);
	if (!budget) return { mode, response, preview: previewRecord(kind, response, quote, {}) };
	const { response: bought, note } = await buy(context, budget, kind, quote, request, itemIndex);
	if (note.notice) warn(context, note.notice);
	return { mode, response: bought, note };
}

/** A charging read as output records: the quote as one item in preview mode, the bought records (with `_charge`) in purchase mode. */
export async function chargedRecords(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndex: number,
	kind: PriceKind,
	request: ApiRequest,
	previewExtra: IDataObject = {},
): Promise<IDataObject[]> {
	const { response, preview, note } = await chargedRequest(context, spending, itemIndex, kind, request);
	if (preview) return [{ ...previewExtra, ...preview }];
	return withCharge(response.results ?? [], note!);
}

export interface PagedCharge {
	kind: PriceKind;
	/** Records per request (the endpoint's largest page). */
	pageSize: number;
	/** Stop after this many records; undefined means all of them ("Return All"). */
	limit?: number;
}

/**
 * A charging read that pages (`Start`/`Limit`): Property Search, Person Get Records. Preview: the
 * first page's quote, and for more than one page an estimate of all of them, with the Max Cost
 * the purchase needs. Purchase: when the number of records is known up front and all of them at
 * full price do not fit, nothing is bought; otherwise page after page, each quoted and held. When
 * a later page cannot be bought, the pages already bought are output (never thrown away), each
 * record's `_charge.notice` says what was not bought, and n8n shows a warning.
 */
export async function chargedPages(
	context: IExecuteFunctions,
	spending: RunSpending,
	itemIndex: number,
	request: ApiRequest,
	{ kind, pageSize, limit }: PagedCharge,
	previewExtra: IDataObject = {},
): Promise<IDataObject[]> {
	const mode = chargeMode(context, spending, itemIndex);
	const budget = mode === 'purchase' ? await purchaseBudget(context, spending, itemIndex) : undefined;
	const pageRequest = (start: number, size: number): ApiRequest => ({ ...request, qs: { ...request.qs, Start: start, Limit: size } });
	const firstSize = Math.min(limit ?? pageSize, pageSize);
	const firstResponse = await requestQuote(context, pageRequest(0, firstSize), itemIndex, budget !== undefined);
	const first = readQuote(context, firstResponse, itemIndex);
	const price = fullPriceCents(kind, first);
	// How many records are wanted, when the service says how many there are (or a full first page does not end them).
	const known = first.totalResultCount ?? (first.count < firstSize ? first.count : undefined);
	const wanted = known === undefined ? limit : Math.min(limit ?? known, known);

	if (!budget) {
		const record = previewRecord(kind, firstResponse, first, { ...previewExtra, ...(first.totalResultCount === undefined ? {} : { totalResultCount: first.totalResultCount }) });
		if (wanted === undefined) {
			record.note = `The quote covers the first page of ${first.count}; how many more there are is not known before buying, and each further page is quoted before it is bought.`;
		} else if (wanted > first.count) {
			const paid = Math.max(0, wanted - (first.freeRemaining ?? 0));
			// The estimate is at the price the quote shows; the Max Cost needed at full price.
			const each = revealedPriceCents(kind, first) ?? price;
			record.wanted = wanted;
			record.resultCount = wanted;
			record.totalCost = formatCents(paid * each);
			record.estimated = true;
			record.maxCostNeeded = formatCents(wanted * price);
			record.note = `${wanted} records are wanted, bought ${pageSize} per request, each page quoted before it is bought. Estimate: free export credits (${first.freeRemaining ?? 0} left) pay for the first ones, the other ${paid} cost ${money(each)} each, ${money(paid * each)} in all. A purchase needs Max Cost of at least ${money(wanted * price)}: every record counted at full price, in case the credits run out first.`;
		} else {
			record.wanted = wanted;
		}
		return [record];
	}

	if (wanted !== undefined && wanted > first.count) {
		const refused = budget.hold(wanted * price);
		if (refused) {
			throw refusal(context, `${refused.replace('This purchase needs', `All ${wanted} records need`)} Nothing was bought, since buying only some pages of the result was not asked for.`, itemIndex);
		}
		budget.release(wanted * price);
	}

	const records: IDataObject[] = [];
	let stopped: string | undefined;
	for (let start = 0, size = firstSize, quote = first; ; ) {
		let bought: Bought;
		try {
			// Never more records than the quote counted, even when more match by the time of the purchase.
			bought = await buy(context, budget, kind, quote, pageRequest(start, Math.min(size, quote.count)), itemIndex);
		} catch (error) {
			if (records.length === 0) throw toNodeError(context.getNode(), error, itemIndex);
			const nodeError = toNodeError(context.getNode(), error, itemIndex);
			stopped = `Stopped after ${records.length} records: ${nodeError.message}. ${nodeError.description ?? ''}`.trim();
			break;
		}
		const results = bought.response.results ?? [];
		records.push(...withCharge(results, bought.note));
		if (bought.note.notice) {
			stopped = bought.note.notice;
			break;
		}
		start += results.length;
		const remaining = Math.min(limit ?? Infinity, wanted ?? Infinity) - records.length;
		if (results.length < size || remaining <= 0) break;
		size = Math.min(pageSize, remaining);
		try {
			quote = readQuote(context, await requestQuote(context, pageRequest(start, size), itemIndex, true), itemIndex);
		} catch (error) {
			const nodeError = toNodeError(context.getNode(), error, itemIndex);
			stopped = `Stopped after ${records.length} records: the quote of the next page failed (${nodeError.message}), so nothing more was bought.`;
			break;
		}
	}
	if (stopped) {
		const notice = `${stopped} ${records.length} records were bought and are all in the output${wanted === undefined ? '' : `; ${Math.max(0, wanted - records.length)} of the ${wanted} wanted were not bought`}.`;
		for (const record of records) (record._charge as ChargeNote).notice = notice;
		warn(context, notice);
	}
	return records;
}

export interface BatchedCharge<R> {
	kind: PriceKind;
	/** Every record of the run, in the order they are sent. */
	records: R[];
	batchSize: number;
	/** Sends records with `Purchase` 0 (the quote, repeatable) or 1 (the purchase, sent once). */
	send(records: R[], purchase: 0 | 1): Promise<ApiEnvelope>;
	/**
	 * Starts a check made while the quote travels, such as that the target takes the records:
	 * started once the run's money settings are read and good, with the quote, and awaited once the
	 * quote is answered (or has failed), before anything else; when it fails, its error is the
	 * run's, and nothing is bought.
	 */
	check?(): Promise<void>;
	/**
	 * Takes what became of the record at `index` of `records`, once for each record, in their
	 * order: a batch's records as soon as the next batch is sent (so that the work is done while it
	 * travels), or the run's buying has ended.
	 */
	settled(index: number, outcome: BatchOutcome): void;
}

/** What became of one record of a batched purchase. */
export type BatchOutcome =
	| { bought: true; result: IDataObject; note: ChargeNote }
	| { bought: false; error: string; description: string; httpCode?: string };

/**
 * A charging write in batches (Import Record > Import): one free quote of every record, refused
 * before anything is sent when all of them at full price do not fit; then each batch sent once,
 * after the answer to the one before it has been settled against its hold. A batch that fails
 * ends the run's buying: its records are "refused, nothing charged" or "may have been imported
 * and charged", the later ones "not sent", and every record already bought is kept. Each
 * record's outcome goes to `settled`; in preview mode, none does, and the quote is returned.
 */
export async function chargedBatches<R>(
	context: IExecuteFunctions,
	spending: RunSpending,
	{ kind, records, batchSize, send, check, settled }: BatchedCharge<R>,
): Promise<{ preview?: IDataObject }> {
	const mode = chargeMode(context, spending, 0);
	const budget = mode === 'purchase' ? await purchaseBudget(context, spending, 0) : undefined;
	const checked = check?.();
	// Its failure is awaited below, once the quote is answered.
	checked?.catch(() => undefined);
	let response: ApiEnvelope;
	try {
		response = await send(records, 0);
	} catch (error) {
		await checked;
		const nodeError = toNodeError(context.getNode(), error);
		if (budget) nodeError.description = `${nodeError.description ?? ''} This was the free quote before the import: no record was sent for import, and nothing was charged.`.trim();
		throw nodeError;
	}
	await checked;
	const quote = readQuote(context, response, 0);
	// Every record sent may be charged, whatever the quote counted.
	const held = worstCaseCents(kind, { ...quote, count: Math.max(quote.count, records.length) });
	if (!budget) return { preview: previewRecord(kind, response, quote, {}, held) };

	const refused = budget.hold(held);
	if (refused) {
		throw refusal(context, `${refused} The import of ${records.length} records was not started.`, 0);
	}
	let heldLeft = held;
	const perRecord = Math.ceil(held / Math.max(records.length, 1));
	let batch = records.slice(0, batchSize);
	let sending = send(batch, 1);
	for (let start = 0; start < records.length; start += batchSize) {
		const heldForBatch = Math.min(heldLeft, perRecord * batch.length);
		let answer: ApiEnvelope;
		try {
			answer = await sending;
		} catch (error) {
			const nodeError = toNodeError(context.getNode(), error);
			const nothingCharged = chargedNothing(error);
			if (nothingCharged) budget.release(heldLeft);
			else {
				budget.keepUnconfirmed(heldForBatch, `a batch of ${batch.length} records whose answer was lost or failed`);
				budget.release(heldLeft - heldForBatch);
			}
			const before = `${start} records were imported and charged before this batch (${money(budget.spent - (nothingCharged ? 0 : heldForBatch))} spent).`;
			const httpCode = (nodeError as { httpCode?: string | null }).httpCode ?? undefined;
			for (let index = start; index < records.length; index++) {
				const inBatch = index < start + batch.length;
				settled(index, {
					bought: false,
					httpCode,
					error: inBatch ? nodeError.message : 'Not imported: an earlier batch of this import failed',
					description: inBatch
						? `${nodeError.description ?? ''} ${nothingCharged ? `The ${batch.length} records of this batch were not imported and not charged.` : `The ${batch.length} records of this batch may have been imported and charged; look at the import list before sending them again.`} ${before}`.trim()
						: `This record was not sent and not charged: the batch with records ${start} to ${start + batch.length - 1} failed (${nodeError.message}). ${before}`,
				});
			}
			warn(context, `Import stopped at record ${start}: ${start} records imported, ${records.length - start} not (see the error items).`);
			return {};
		}
		const results = Array.isArray(answer?.results) ? answer.results : [];
		heldLeft -= heldForBatch;
		const { charged, notice } = settleAnswer(budget, heldForBatch, answer, results.length, `a batch of ${batch.length} records`);
		const note: ChargeNote = { totalCost: charged === undefined ? 'unknown' : formatCents(charged), resultCount: answer?.resultCount ?? results.length, runTotalCost: formatCents(budget.spent), ...(notice ? { notice } : {}) };
		const answered = batch;
		const next = start + answered.length;
		// Settled above, so the next batch may go, and it travels while this one's records are
		// handed on: the request is on its way after a moment (its body written, its address checked).
		if (!notice && next < records.length) {
			batch = records.slice(next, next + batchSize);
			sending = send(batch, 1);
			// Its failure is awaited below, after the wait.
			sending.catch(() => undefined);
			await sleep(0);
		}
		for (let offset = 0; offset < answered.length; offset++) {
			const result = results[offset];
			settled(start + offset, result
				? { bought: true, result, note }
				: { bought: false, error: 'PropRadar returned no import item for this record', description: `The answer to its batch had ${results.length} items for ${answered.length} records; check the import list.` });
		}
		if (notice) {
			warn(context, notice);
			for (let index = next; index < records.length; index++) {
				settled(index, { bought: false, error: 'Not imported: the import stopped buying', description: `${notice} This record was not sent and not charged.` });
			}
			break;
		}
	}
	budget.release(heldLeft);
	return {};
}

/** What makes an automation buy, when it is enabled: the names of those settings in `automation`. */
export function automationCharges(automation: Partial<AutomationRecord>): string[] {
	if (Number(automation.isEnabled) !== 1) return [];
	return [
		Number(automation.PurchasePhone) === 1 && 'Purchase Phone',
		Number(automation.PurchaseEmail) === 1 && 'Purchase Email',
		String(automation.DirectMailOrderID ?? '').trim() && 'Direct Mail Order',
		String(automation.EmailMarketingOrderID ?? '').trim() && 'Email Marketing Order',
	].filter((name): name is string => Boolean(name));
}

/**
 * Refuses to set up an automation that buys unless the node's option allows it and, when the
 * credential has a spending ceiling, the credential's owner allows charging automations: those
 * charges happen later inside PropRadar, outside any node run, so no ceiling can bound them.
 */
export async function assertChargingAutomationAllowed(
	context: IExecuteFunctions,
	what: string,
	charges: string[],
	optionOn: boolean,
	itemIndex: number,
): Promise<void> {
	if (charges.length === 0) return;
	const buys = `${what} would buy (${charges.join(', ')}) for every property that triggers it, non-refundable and with no Max Cost`;
	if (!optionOn) {
		throw new NodeOperationError(context.getNode(), `${what} would buy: turn on "Allow Charging Automation" to configure it`, {
			itemIndex,
			description: `The ${buys}. Nothing was changed. Turn on the option "Allow Charging Automation" of this node if that is what you want.`,
		});
	}
	const connection = await getConnection(context);
	if (readCeiling(context, connection.spendingCeiling, 'Nothing was changed and nothing was charged.') !== undefined && !connection.allowChargingAutomations) {
		throw new NodeOperationError(context.getNode(), `${what} would buy, and the PropRadar credential does not allow charging automations`, {
			itemIndex,
			description: `The ${buys}. Those charges happen later inside PropRadar, where the credential's Spending Ceiling cannot bound them, so a credential with a ceiling refuses them unless its owner turns on "Allow Charging Automations" in the credential. Nothing was changed.`,
		});
	}
}
