/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The trigger under faults injected at the HTTP level (the engine harness's recording proxy):
 * deactivation during an outage, lost answers to the webhook registration, the credential's
 * rule on charging automations, and two n8n processes wiring the same list.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import type { PropRadarTrigger } from '../../../nodes/PropRadar/PropRadarTrigger.node';
import { TOKENS, type Fault } from '../../support/harness';
import { api, control } from '../../support/helpers';
import {
	automationOf,
	createMonitoredList,
	cutWebhookNames,
	postDelivery,
	serviceSecret,
	setAutomation,
	triggerWebhooksOf,
	TriggerWorkflow,
	useTriggerSandbox,
	webhooksOf,
} from '../../support/triggerHarness';

// A bound against a hung run on a busy machine, not a speed assertion.
jest.setTimeout(300_000);

const { sb, receiver, trigger } = useTriggerSandbox();

/**
 * The service may cut or change webhook names (it cuts ListName to 50 characters): every test here
 * runs with names cut to their first 21 characters, "n8n PropRadar Trigger", which say nothing but
 * that a trigger wrote them. A cut to 50 would change nothing (this version's names fit in 50). Run
 * once, cut, rather than also whole: a whole name only adds, for a webhook found at the trigger's
 * URL whose answer was lost, its list and events, and such a webhook was never wired, so they
 * change nothing; names read whole are kept by trigger.test.ts and triggerNameCut.test.ts. Two
 * workflows on one list tell each other the baseline by name, so they run with names cut to 50.
 */
beforeAll(async () => await cutWebhookNames(sb, 21));

afterEach(() => {
	sb.faults.length = 0;
});

const ownWebhooks = async (wf: TriggerWorkflow) =>
	(await webhooksOf(sb)).filter((hook) => String(hook.HookUrl).endsWith(wf.path()));

async function listOf(listId: number): Promise<IDataObject> {
	const response = await api<{ results: IDataObject[] }>(sb, 'GET', `/v1/lists/${listId}`);
	return response.body.results[0];
}

/** Whether the list's automation buys when properties enter or change: monitored, enabled, firing, with a purchase. */
async function ableToCharge(listId: number): Promise<boolean> {
	const automation = await automationOf(sb, listId);
	const buys =
		Number(automation.PurchasePhone) === 1 ||
		Number(automation.PurchaseEmail) === 1 ||
		Boolean(automation.DirectMailOrderID) ||
		Boolean(automation.EmailMarketingOrderID);
	return (
		Number((await listOf(listId)).isMonitored) === 1 &&
		Number(automation.isEnabled) === 1 &&
		String(automation.Triggers ?? '') !== '' &&
		buys
	);
}

async function chargesCount(): Promise<number> {
	const response = await control<{ log: unknown[] }>(
		sb,
		'GET',
		`/_sandbox/charges?token=${TOKENS.main}`,
	);
	return response.body.log.length;
}

/** A list whose automation buys phones for every trigger, switched off until a trigger turns it on. */
async function chargingList(name: string): Promise<{ listId: number; before: IDataObject }> {
	const listId = await createMonitoredList(sb, name);
	await setAutomation(sb, listId, { isEnabled: 0, PurchasePhone: 1 });
	return { listId, before: await automationOf(sb, listId) };
}

const allowed = { options: { allowChargingAutomation: true } };

/** The webhook registration is made, and its answer lost. */
const registrationAnswerLost = (): Fault => ({
	method: 'POST',
	pathPrefix: '/v1/integrations/webhooks',
	count: 1,
	dropAfterForward: true,
});
/** Every read of the webhooks with their secrets fails: a lost registration is not found again. */
const lookUpFails = (): Fault => ({
	method: 'GET',
	pathPrefix: '/v1/integrations/webhooks',
	query: { Fields: 'WebhookID,HookUrl,WebhookName,Secret' },
	count: 1000,
	status: 502,
});
/** Answer lost, not found again, and the orphan not removable for a while. */
const orphaned = (): Fault[] => [
	registrationAnswerLost(),
	lookUpFails(),
	{ method: 'DELETE', pathPrefix: '/v1/integrations/webhooks/', count: 1000, status: 503 },
];
const automationWrites = (listId: number, fault: Omit<Fault, 'method' | 'pathPrefix'>): Fault => ({
	method: 'PUT',
	pathPrefix: `/v1/lists/${listId}/automations`,
	...fault,
});

/**
 * An activation whose webhook registration was made but its answer lost, which cannot find it
 * again or remove it: it fails and leaves its webhook behind, an orphan.
 */
async function leaveOrphan(wf: TriggerWorkflow): Promise<void> {
	sb.faults.push(...orphaned());
	await expect(wf.activate()).rejects.toThrow();
	sb.faults.length = 0;
}

describe('deactivation under an outage', () => {
	test('4 x 503 on the automation write: deactivation still finishes, the automation is back and cannot charge', async () => {
		const { listId, before } = await chargingList('Faults short outage');
		const wf = trigger(listId, allowed);
		await wf.activate();
		expect(await ableToCharge(listId)).toBe(true);

		sb.faults.push(automationWrites(listId, { count: 4, status: 503 }));
		await wf.deactivate();
		expect(await automationOf(sb, listId)).toEqual(before);
		expect(await ownWebhooks(wf)).toEqual([]);
		expect(await ableToCharge(listId)).toBe(false);
	});

	test('an outage that outlasts the retries: the list cannot charge, the error and the log say so, without the secret; the next deactivation finishes', async () => {
		const { listId, before } = await chargingList('Faults long outage');
		const wf = trigger(listId, allowed);
		await wf.activate();
		const secret = await serviceSecret(sb, wf);
		const logged = jest.spyOn(Container.get(Logger), 'error');

		sb.faults.push(automationWrites(listId, { count: 1000, status: 503 }));
		let error: Error | undefined;
		await wf.deactivate().catch((caught: Error) => (error = caught));
		sb.faults.length = 0;
		expect(error?.message).toBe(
			`PropRadar Trigger: the clean-up of list ${listId} could not finish`,
		);
		expect((error as Error & { description?: string }).description).toMatch(
			new RegExp(
				`^The automation of list ${listId} could not be written.*Monitoring of list ${listId} was turned off so that its automation cannot charge for this trigger.*Activating or deactivating this workflow again finishes the clean-up`,
			),
		);
		const logLines = logged.mock.calls.map((call) => JSON.stringify(call));
		logged.mockRestore();
		expect(
			logLines.some(
				(line) =>
					line.includes(`clean-up of list ${listId} could not finish`) &&
					line.includes('Monitoring of list'),
			),
		).toBe(true);
		expect(
			JSON.stringify({ ...error, message: error?.message, stack: error?.stack, logLines }),
		).not.toContain(secret);

		expect(await ableToCharge(listId)).toBe(false);
		const charges = await chargesCount();
		for (let i = 0; i < 3; i++)
			await control(sb, 'POST', '/_sandbox/simulate/new-match', { ListID: listId });
		expect(await chargesCount()).toBe(charges);
		expect(await wf.hook('checkExists')).toBe(false);

		// The next deactivation (n8n repeats `delete`) finishes: automation, webhook and monitoring as before.
		await wf.deactivate();
		expect(await automationOf(sb, listId)).toEqual(before);
		expect((await listOf(listId)).isMonitored).toBe(1);
		expect(await ownWebhooks(wf)).toEqual([]);
		expect(wf.registration().webhookId).toBeUndefined();
	});

	test('an outage that outlasts the retries on a list whose automation buys nothing: monitoring stays on, the error says the automation may still fire but buys nothing', async () => {
		const listId = await createMonitoredList(sb, 'Faults long outage, no charges');
		const before = await automationOf(sb, listId);
		const wf = trigger(listId);
		await wf.activate();
		sb.faults.push(automationWrites(listId, { count: 1000, status: 503 }));
		let error: (Error & { description?: string }) | undefined;
		await wf.deactivate().catch((caught: Error) => (error = caught));
		sb.faults.length = 0;
		expect(error?.description).toMatch(
			new RegExp(
				`^The automation of list ${listId} could not be written \\(.+\\)\\. The automation of list ${listId} may still fire for this trigger, but buys nothing when it does\\. Activating or deactivating this workflow again finishes the clean-up\\.$`,
			),
		);
		expect((await listOf(listId)).isMonitored).toBe(1);
		await wf.deactivate();
		expect(await automationOf(sb, listId)).toEqual(before);
		expect(await ownWebhooks(wf)).toEqual([]);
	});

	test('an unfinished deactivation is finished by the next activation, which then wires afresh', async () => {
		const { listId, before } = await chargingList('Faults finished by activation');
		const wf = trigger(listId, allowed);
		await wf.activate();
		const first = wf.registration().webhookId;
		sb.faults.push(automationWrites(listId, { count: 1000, status: 502 }));
		sb.faults.push({
			method: 'DELETE',
			pathPrefix: '/v1/integrations/webhooks/',
			count: 1000,
			drop: true,
		});
		await expect(wf.deactivate()).rejects.toThrow(/could not finish/);
		sb.faults.length = 0;
		expect(await ableToCharge(listId)).toBe(false);
		expect((await ownWebhooks(wf)).map((hook) => hook.WebhookID)).toEqual([first]);

		await wf.activate();
		const own = await ownWebhooks(wf);
		expect(own.map((hook) => hook.WebhookID)).toEqual([wf.registration().webhookId]);
		expect(wf.registration().webhookId).not.toBe(first);
		expect((await listOf(listId)).isMonitored).toBe(1);
		expect((await automationOf(sb, listId)).ExportToWebhookIDs).toBe(
			String(wf.registration().webhookId),
		);
		expect(await wf.hook('checkExists')).toBe(true);

		await wf.deactivate();
		expect(await automationOf(sb, listId)).toEqual(before);
		expect(await ownWebhooks(wf)).toEqual([]);
	});
});

describe('lost answers to the registration', () => {
	test('the webhook registered but its answer lost: it is found by URL and secret and adopted, never duplicated', async () => {
		const listId = await createMonitoredList(sb, 'Faults lost answer adopted');
		const before = await automationOf(sb, listId);
		const wf = trigger(listId);
		sb.faults.push(registrationAnswerLost());
		await wf.activate();
		const own = await ownWebhooks(wf);
		expect(own.map((hook) => hook.WebhookID)).toEqual([wf.registration().webhookId]);
		expect((await automationOf(sb, listId)).ExportToWebhookIDs).toBe(
			String(wf.registration().webhookId),
		);
		expect(await wf.hook('checkExists')).toBe(true);
		await wf.deactivate();
		expect(await automationOf(sb, listId)).toEqual(before);
		expect(await ownWebhooks(wf)).toEqual([]);
	});

	test("answer lost and not found again: activation fails and n8n's `delete` removes the orphan", async () => {
		const listId = await createMonitoredList(sb, 'Faults lost answer removed');
		const wf = trigger(listId);
		// The look-up of the new webhook fails (a read asking for secrets, as only it and checkExists of a stored registration make).
		sb.faults.push(registrationAnswerLost(), lookUpFails());
		await expect(wf.activate()).rejects.toThrow();
		expect(await ownWebhooks(wf)).toEqual([]);
		expect(wf.registration().webhookId).toBeUndefined();
	});

	test('answer lost and the orphan not removable for a while: checkExists never says it exists, the next activation removes it', async () => {
		const listId = await createMonitoredList(sb, 'Faults lost answer orphan');
		const before = await automationOf(sb, listId);
		const wf = trigger(listId);
		await leaveOrphan(wf);
		expect(await ownWebhooks(wf)).toHaveLength(1);
		expect(await wf.hook('checkExists')).toBe(false);

		await wf.activate();
		expect((await ownWebhooks(wf)).map((hook) => hook.WebhookID)).toEqual([
			wf.registration().webhookId,
		]);
		await wf.deactivate();
		expect(await ownWebhooks(wf)).toEqual([]);
		expect(await automationOf(sb, listId)).toEqual(before);
	});

	test('an orphan whose wiring answer was lost is not reported as existing, and goes', async () => {
		const listId = await createMonitoredList(sb, 'Faults lost wiring answer');
		const before = await automationOf(sb, listId);
		const wf = trigger(listId);
		// The automation write happens but every answer to it is lost, and so is every later read.
		sb.faults.push(automationWrites(listId, { count: 1000, dropAfterForward: true }));
		await expect(wf.activate()).rejects.toThrow();
		sb.faults.length = 0;
		expect(await wf.hook('checkExists')).toBe(false);
		await wf.activate();
		expect(await wf.hook('checkExists')).toBe(true);
		expect((await ownWebhooks(wf)).map((hook) => hook.WebhookID)).toEqual([
			wf.registration().webhookId,
		]);
		await wf.deactivate();
		expect(await ownWebhooks(wf)).toEqual([]);
		expect(await automationOf(sb, listId)).toEqual(before);
	});
});

describe('a service that answers fewer webhooks a page than asked', () => {
	test('an orphan beyond a short first page is still found, and deactivation removes it', async () => {
		const listId = await createMonitoredList(sb, 'Faults orphan beyond a short page');
		const before = await automationOf(sb, listId);
		for (let n = 0; n < 3; n++)
			await api(sb, 'POST', '/v1/integrations/webhooks', {
				HookUrl: `http://127.0.0.1:9/filler-${n}`,
				WebhookName: `filler ${n}`,
			});
		const wf = trigger(listId);
		await leaveOrphan(wf);
		const [orphan] = await ownWebhooks(wf);
		const every = await webhooksOf(sb);
		const at = every.findIndex((hook) => hook.WebhookID === orphan.WebhookID);
		expect(at).toBeGreaterThan(0);

		// The first page of the deactivation's read holds only the webhooks before the orphan, as a
		// service with a page cap below what was asked would give it.
		sb.faults.push({
			method: 'GET',
			pathPrefix: '/v1/integrations/webhooks',
			query: { Fields: 'WebhookID,HookUrl,WebhookName', Start: '0' },
			count: 1,
			status: 200,
			body: { results: every.slice(0, at) },
		});
		await wf.deactivate();
		expect(sb.faults[0].count).toBe(0);
		expect(await ownWebhooks(wf)).toEqual([]);
		expect(await automationOf(sb, listId)).toEqual(before);
	});
});

describe('the credential decides on charging automations when it has a spending ceiling', () => {
	test('a ceiling without "Allow Charging Automations" refuses, with nothing registered, even with the node\'s option on', async () => {
		const { listId, before } = await chargingList('Faults credential refuses');
		const posts = sb.sent('/v1/integrations/webhooks', 'POST').length;
		const refused = trigger(listId, { ...allowed, credentials: { spendingCeiling: 5 } });
		await expect(refused.activate()).rejects.toThrow(
			/the PropRadar credential does not allow charging automations/,
		);
		let description = '';
		await refused
			.hook('create')
			.catch(
				(error: Error & { description?: string }) => (description = String(error.description)),
			);
		expect(description).toMatch(/option "Allow Charging Automations"/);
		expect(sb.sent('/v1/integrations/webhooks', 'POST')).toHaveLength(posts);
		expect(await automationOf(sb, listId)).toEqual(before);

		const permitted = trigger(listId, {
			...allowed,
			credentials: { spendingCeiling: 5, allowChargingAutomations: true },
		});
		await permitted.activate();
		expect(await ableToCharge(listId)).toBe(true);
		await permitted.deactivate();
		expect(await automationOf(sb, listId)).toEqual(before);

		// The credential allowing it does not replace the node's own option.
		const notOptedIn = trigger(listId, {
			credentials: { spendingCeiling: 5, allowChargingAutomations: true },
		});
		await expect(notOptedIn.activate()).rejects.toThrow(
			/would buy phone numbers \(PurchasePhone\)/,
		);
		expect(sb.sent('/v1/integrations/webhooks', 'POST')).toHaveLength(posts + 1);
	});
});

describe('a Spending Ceiling that is no amount fails closed at activation', () => {
	test.each(['$50', 'fifty', '-5'])(
		'a ceiling of "%s": refused naming the ceiling, with nothing registered, even with the node\'s option on',
		async (ceiling) => {
			const { listId, before } = await chargingList(`Faults unreadable ceiling ${ceiling}`);
			const posts = sb.sent('/v1/integrations/webhooks', 'POST').length;
			const wf = trigger(listId, {
				...allowed,
				credentials: {
					spendingCeiling: ceiling as unknown as number,
					allowChargingAutomations: false,
				},
			});
			let error: (Error & { description?: string }) | undefined;
			await wf.hook('create').catch((caught: Error & { description?: string }) => (error = caught));
			expect(error?.message).toBe(
				`Spending Ceiling per Execution of the PropRadar credential: must be an amount in USD, 0 (no ceiling) or more with at most two decimals, got "${ceiling}"`,
			);
			expect(error?.description).toBe(
				"Nothing was registered and nothing was charged. Ask the credential's owner to correct it.",
			);
			expect(sb.sent('/v1/integrations/webhooks', 'POST')).toHaveLength(posts);
			expect(await automationOf(sb, listId)).toEqual(before);
		},
	);
});

describe('two n8n processes on one list', () => {
	// A second copy of the node with its own module state, as it is in another n8n process.
	let otherProcess: PropRadarTrigger;
	beforeAll(() => {
		jest.isolateModules(() => {
			const module = jest.requireActual<
				typeof import('../../../nodes/PropRadar/PropRadarTrigger.node')
			>('../../../nodes/PropRadar/PropRadarTrigger.node');
			otherProcess = new module.PropRadarTrigger();
		});
	});
	beforeAll(async () => await cutWebhookNames(sb, 50));
	afterAll(async () => await cutWebhookNames(sb, 21));

	test('redelivery dedupe holds in the process that got the first delivery, not in another webhook process (as the README says)', async () => {
		const listId = await createMonitoredList(sb, 'Faults dedupe per process');
		const wf = trigger(listId);
		await wf.activate();
		try {
			const authorization = `Bearer ${await serviceSecret(sb, wf)}`;
			const event = { TriggerType: 'New Match', PropID: 'P-DEDUPE-1', ListID: listId };
			const deliver = async () => {
				await postDelivery(wf.url(), event, authorization);
				return receiver.deliveriesOf(wf.id).at(-1)!.items;
			};
			expect(await deliver()).toEqual([event]);
			expect(await deliver()).toBeUndefined();
			// The same workflow served by another n8n webhook process: it has not seen the event.
			receiver.listen(wf.path(), { trigger: wf, test: false, nodeType: otherProcess });
			expect(await deliver()).toEqual([event]);
			expect(await deliver()).toBeUndefined();
		} finally {
			await wf.deactivate();
		}
	});

	test('activations and deactivations at the same moment in two processes keep every active trigger wired and end at the baseline (10 rounds)', async () => {
		const listId = await createMonitoredList(sb, 'Faults two processes');
		const before = await automationOf(sb, listId);
		for (let round = 0; round < 10; round++) {
			const workflows = [
				trigger(listId, { events: ['newMatches'] }),
				trigger(listId, { events: ['statusChanges'], nodeType: otherProcess }),
				trigger(listId, { events: ['newMatches'], nodeType: otherProcess }),
				trigger(listId, { events: ['newMatches', 'statusChanges'] }),
			];
			await Promise.all(workflows.map((wf) => wf.activate()));
			const wired = await automationOf(sb, listId);
			expect({ round, ids: String(wired.ExportToWebhookIDs).split(',').sort() }).toEqual({
				round,
				ids: workflows.map((wf) => String(wf.registration().webhookId)).sort(),
			});
			expect(wired.Triggers).toBe('New Matches,Status Changes');
			for (const wf of workflows) expect(await wf.hook('checkExists')).toBe(true);

			// Half leave while the other half stay: the staying ones keep their wiring.
			await Promise.all([workflows[0].deactivate(), workflows[1].deactivate()]);
			const staying = await automationOf(sb, listId);
			expect({ round, ids: String(staying.ExportToWebhookIDs).split(',').sort() }).toEqual({
				round,
				ids: [workflows[2], workflows[3]].map((wf) => String(wf.registration().webhookId)).sort(),
			});
			await Promise.all([workflows[2].deactivate(), workflows[3].deactivate()]);
			expect(await automationOf(sb, listId)).toEqual(before);
			expect(await triggerWebhooksOf(sb, listId)).toEqual([]);
		}
	});
});

test('100 activate/deactivate cycles of one workflow with faults: no orphan, the automation back to its original state, nothing able to charge after any deactivation', async () => {
	const { listId, before } = await chargingList('Faults 100 cycles');
	const webhooksBefore = await webhooksOf(sb);
	const wf = trigger(listId, allowed);
	const figures = {
		cycles: 0,
		faults: 0,
		failedActivations: 0,
		failedDeactivations: 0,
		ableToChargeAfterDeactivation: 0,
	};
	const inject = (fault: (typeof sb.faults)[number]) => {
		sb.faults.push(fault);
		figures.faults++;
	};

	for (let cycle = 0; cycle < 100; cycle++) {
		figures.cycles++;
		// Faults during activation.
		if (cycle % 10 === 0) inject(registrationAnswerLost());
		if (cycle % 10 === 7) inject(automationWrites(listId, { count: 1, dropAfterForward: true }));
		if (cycle === 41 || cycle === 83) for (const fault of orphaned()) inject(fault);
		let activated = true;
		await wf.activate().catch(() => {
			activated = false;
			figures.failedActivations++;
		});
		sb.faults.length = 0;
		if (!activated) continue;
		expect(await ableToCharge(listId)).toBe(true);

		// Faults during deactivation.
		if (cycle % 10 === 3) inject(automationWrites(listId, { count: 4, status: 503 }));
		if (cycle % 10 === 5) {
			inject({ method: 'DELETE', pathPrefix: '/v1/integrations/webhooks/', count: 1, drop: true });
			inject(automationWrites(listId, { count: 2, status: 429, headers: { 'retry-after': '0' } }));
		}
		if (cycle === 12 || cycle === 52 || cycle === 92)
			inject(automationWrites(listId, { count: 1000, status: 503 }));
		await wf.deactivate().catch(() => figures.failedDeactivations++);
		sb.faults.length = 0;
		if (await ableToCharge(listId)) figures.ableToChargeAfterDeactivation++;
	}

	const orphans = (await ownWebhooks(wf)).length;
	console.log(`trigger under faults: ${JSON.stringify({ ...figures, orphans })}`);
	expect(figures).toEqual({
		cycles: 100,
		faults: figures.faults,
		failedActivations: 2,
		failedDeactivations: 3,
		ableToChargeAfterDeactivation: 0,
	});
	expect(orphans).toBe(0);
	expect(await webhooksOf(sb)).toEqual(webhooksBefore);
	expect(await automationOf(sb, listId)).toEqual(before);
	expect((await listOf(listId)).isMonitored).toBe(1);
});
