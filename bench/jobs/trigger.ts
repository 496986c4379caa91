/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error, no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The trigger: new matches delivered by the sandbox into an activated workflow, beside n8n's own
 * Webhook node with the same follow-up; both again in an n8n started with each setting of its
 * expression engine, and in queue mode. Deliveries are timed from the event to the execution's
 * post to the sandbox's CRM stand-in. With --wan, the deliveries and the Webhook node's events
 * reach n8n over a link of their own (run.ts), and queue mode is left out.
 */
import { join } from 'node:path';

import { request, type Dispatcher } from 'undici';

import type { RunningSandbox } from '../../sandbox/types';
import { webhookDispatcher } from '../../sandbox/webhooks/delivery';
import type { Bench } from '../measure';
import { n8n, type N8nHost, type RunningN8n } from '../n8n';
import { SIZES } from '../options';
import { sandboxCall } from '../sandboxApi';
import { ENGINE_SETTINGS, QUEUE_MODE, settingText, TRIGGER_IN_FLIGHT } from '../table';
import { WEBHOOK_NODE_PATH } from '../workflows';

/** What a run of deliveries gave: rates and latencies from the event to the execution's CRM post, and what went astray. */
type DeliveryFigures = {
	deliveries: number;
	executions: number;
	deliveriesPerSecond: number;
	p50Ms: number;
	p95Ms: number;
	lost: number;
	duplicated: number;
	duplicatePosts?: string;
	/** The trigger's deliveries only: those the sandbox gave up on, and those it sent more than once. */
	notDelivered?: number;
	deliveredAgain?: number;
};

type Pair = { trigger: DeliveryFigures; webhookNode: DeliveryFigures };
export type TriggerFigures = Pair & {
	engineSettings: Array<{ name: string } & Pair>;
	/** Not run over the WAN link. */
	queueMode?: Pair;
};

/** With --wan: the https URL that reaches n8n's webhooks over the link, and the run's certificate (PEM). */
export interface WebhookLink {
	url: string;
	ca: string;
}

/** POSTs JSON to one of n8n's webhooks as the benchmark does (the Webhook node's events, the trigger's check); its status. */
async function postJson(
	dispatcher: Dispatcher | undefined,
	url: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<number> {
	const response = await request(url, {
		dispatcher,
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});
	await response.body.dump();
	return response.statusCode;
}

/**
 * Runs the job in `bench.host`, then stops it and starts n8n again for each run after (the one
 * running at the end is `bench.host`, for the caller to stop). `prepared`: the n8n home to start.
 * `link` (--wan): n8n's webhooks are reached over it, by the sandbox's deliveries (n8n's webhook
 * URL is the link's, run.ts) and by the Webhook node's events, n8n as it comes and under each
 * engine setting; queue mode is left out, its webhook process's address being the one
 * scripts/n8n-host.js `startQueue` gives it (the loopback run measures it).
 */
export async function triggerJob(
	bench: Bench,
	prepared: N8nHost,
	workflowIds: { trigger: string; webhookNode: string },
	triggerList: number,
	link?: WebhookLink,
): Promise<TriggerFigures> {
	const { sandbox } = bench;
	const both = async (
		host: RunningN8n,
		webhookBase?: string,
		dispatcher?: Dispatcher,
	): Promise<Pair> => {
		const trigger = await triggerRun(
			sandbox,
			host,
			workflowIds.trigger,
			triggerList,
			webhookBase,
			dispatcher,
		);
		const webhookNode = await webhookNodeRun(
			sandbox,
			host,
			workflowIds.webhookNode,
			webhookBase,
			dispatcher,
		);
		return { trigger, webhookNode };
	};
	console.log(
		`Trigger: ${SIZES.trigger} deliveries into an activated workflow, then as many events into n8n's own Webhook node${link ? `, over the link at ${link.url}` : ''} ...`,
	);
	// Deliveries are timed over the whole run: no collections asked for.
	bench.collector.close();
	const dispatcher = webhookDispatcher(link?.ca);
	const engineSettings: TriggerFigures['engineSettings'] = [];
	let first: Pair;
	try {
		first = await both(bench.host, link?.url, dispatcher);
		// n8n 2.41 evaluates expressions in an isolate it builds for every execution: the same two
		// runs under the settings of its expression engine that change that (n8n keeps its port, so
		// a link in front of it still reaches it).
		for (const setting of ENGINE_SETTINGS) {
			console.log(`the same two, n8n started again with ${settingText(setting.env)} ...`);
			await bench.host.stop();
			bench.host = await n8n.start(
				{ ...prepared, env: { ...prepared.env, ...setting.env } },
				{ logFile: join(prepared.userFolder, 'n8n.log') },
			);
			engineSettings.push({
				name: setting.name,
				...(await both(bench.host, link?.url, dispatcher)),
			});
		}
	} finally {
		await dispatcher?.close();
	}
	const { trigger, webhookNode } = first;
	if (link) return { trigger, webhookNode, engineSettings };
	// More processes on the same cores: n8n's queue mode, the deliveries answered by a webhook
	// process and executed by a worker.
	console.log(`the same two, n8n in queue mode (${QUEUE_MODE.says}) ...`);
	await bench.host.stop();
	const queue = await n8n.startQueue(prepared, {
		workers: QUEUE_MODE.workers,
		concurrency: QUEUE_MODE.concurrency,
		logFile: join(prepared.userFolder, 'n8n.log'),
	});
	bench.host = { ...queue.main, stop: queue.stop };
	try {
		return {
			trigger,
			webhookNode,
			engineSettings,
			queueMode: await both(bench.host, queue.webhookUrl),
		};
	} catch (error) {
		throw new Error(`${(error as Error).message}\n${queue.outputs()}`);
	}
}

export const triggerMet = (figures: DeliveryFigures) =>
	figures.deliveriesPerSecond >= 50 && figures.lost === 0 && figures.duplicated === 0;

/** The trigger's part of the benchmark's JSON; empty when the job did not run. */
export const triggerResult = (figures: TriggerFigures | undefined) => ({
	trigger: figures
		? {
				...figures.trigger,
				target: '>= 50 deliveries/s, 0 lost, 0 duplicated',
				met: triggerMet(figures.trigger),
			}
		: {},
	webhookNode: figures?.webhookNode ?? {},
	engineSettings:
		figures && figures.engineSettings.length > 0
			? figures.engineSettings.map((run) => ({
					...run,
					trigger: { ...run.trigger, met: triggerMet(run.trigger) },
				}))
			: undefined,
	queueMode: figures?.queueMode
		? {
				...figures.queueMode,
				trigger: { ...figures.queueMode.trigger, met: triggerMet(figures.queueMode.trigger) },
			}
		: undefined,
});

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Fires `SIZES.trigger` events (`TRIGGER_IN_FLIGHT` at a time) with `fire`, which answers the key
 * its execution will post to the sandbox's CRM stand-in, and times each from its firing to that
 * post. Posts of other runs (other keys) are not counted.
 */
async function timeDeliveries(
	sandbox: RunningSandbox,
	fire: () => Promise<string>,
): Promise<DeliveryFigures> {
	const sentAt = new Map<string, number>();
	let next = 0;
	const worker = async () => {
		while (next++ < SIZES.trigger) {
			const firedAt = Date.now();
			sentAt.set(await fire(), firedAt);
		}
	};
	await Promise.all(Array.from({ length: TRIGGER_IN_FLIGHT }, worker));
	const ours = async () =>
		(
			await sandboxCall<{ results: Array<{ at: string; body: { propId: string } }> }>(
				sandbox,
				'GET',
				'/_sandbox/crm',
			)
		).results.filter((post) => sentAt.has(post.body.propId));
	const deadline = Date.now() + 120_000;
	let posts = await ours();
	while (posts.length < SIZES.trigger && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		posts = await ours();
	}
	// Anything arriving late would be a duplicate: give it a moment.
	await new Promise((resolve) => setTimeout(resolve, 2000));
	posts = await ours();
	const seen = new Map<string, number>();
	for (const post of posts) seen.set(post.body.propId, (seen.get(post.body.propId) ?? 0) + 1);
	const latencies = posts
		.map((post) => Date.parse(post.at) - sentAt.get(post.body.propId)!)
		.sort((a, b) => a - b);
	const first = Math.min(...sentAt.values());
	const last = Math.max(...posts.map((post) => Date.parse(post.at)));
	return {
		deliveries: sentAt.size,
		executions: posts.length,
		deliveriesPerSecond: (posts.length / Math.max(1, last - first)) * 1000,
		p50Ms: percentile(latencies, 50),
		p95Ms: percentile(latencies, 95),
		lost: [...sentAt.keys()].filter((key) => !seen.has(key)).length,
		duplicated: [...seen.values()].reduce((sum, count) => sum + count - 1, 0),
		// What a duplicate looked like, to explain one if it ever happens: its posts' times.
		...duplicatePosts(posts, seen),
	};
}

/** The first keys posted more than once, each with the times of its posts; nothing when there is none. */
function duplicatePosts(
	posts: Array<{ at: string; body: { propId: string } }>,
	seen: Map<string, number>,
): { duplicatePosts?: string } {
	const keys = [...seen]
		.filter(([, count]) => count > 1)
		.slice(0, 5)
		.map(([key]) => key);
	if (keys.length === 0) return {};
	return {
		duplicatePosts: keys
			.map(
				(key) =>
					`${key} at ${posts
						.filter((post) => post.body.propId === key)
						.map((post) => post.at)
						.join(', ')}`,
			)
			.join('; '),
	};
}

/**
 * The PropRadar Trigger: new matches fired into the list its activated workflow listens to,
 * delivered by the sandbox. `webhookBase`: where n8n's webhooks must be registered (--wan: the
 * link's URL); `dispatcher` trusts its certificate.
 */
async function triggerRun(
	sandbox: RunningSandbox,
	host: RunningN8n,
	workflowId: string,
	listId: number,
	webhookBase = host.url,
	dispatcher?: Dispatcher,
): Promise<DeliveryFigures> {
	const client = await n8n.login(host);
	await n8n.activate(client, workflowId);
	try {
		// n8n answers the activation before the trigger has registered its webhook, and serves it with
		// its secret a moment later: a delivery with the secret and no events then gets 400. Its
		// webhook must be at `webhookBase`, where the deliveries are meant to go (--wan: the link).
		const until = Date.now() + 60_000;
		for (;;) {
			const hooks = (
				await sandboxCall<{ results: Array<{ HookUrl: string; Secret: string }> }>(
					sandbox,
					'GET',
					'/v1/integrations/webhooks',
				).catch(() => ({ results: [] }))
			).results;
			const hook = hooks.find((candidate) => candidate.HookUrl.startsWith(`${webhookBase}/`));
			if (
				hook &&
				(await postJson(
					dispatcher,
					hook.HookUrl,
					{},
					{ authorization: `Bearer ${hook.Secret}` },
				)) === 400
			)
				break;
			if (Date.now() > until)
				throw new Error(
					`the trigger's webhook at ${webhookBase} was not served within 60 s of activation (registered: ${hooks.map((candidate) => candidate.HookUrl).join(', ') || 'none'})`,
				);
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		type Delivery = {
			outcome: string;
			status: number | null;
			attempts: number;
			statuses: Array<number | null>;
		};
		const earlier = (
			await sandboxCall<{ results: Delivery[] }>(sandbox, 'GET', '/_sandbox/deliveries?wait=1')
		).results.length;
		const figures = await timeDeliveries(
			sandbox,
			async () =>
				(
					await sandboxCall<{ PropID: string }>(sandbox, 'POST', '/_sandbox/simulate/new-match', {
						ListID: listId,
					})
				).PropID,
		);
		const entries = (
			await sandboxCall<{ results: Delivery[] }>(sandbox, 'GET', '/_sandbox/deliveries?wait=1')
		).results.slice(earlier);
		const notDelivered = entries.filter((entry) => entry.outcome !== 'delivered');
		if (notDelivered.length > 0)
			console.log(`deliveries not delivered: ${JSON.stringify(notDelivered.slice(0, 5))}`);
		const again = entries.filter((entry) => entry.attempts > 1);
		if (again.length > 0)
			console.log(
				`deliveries sent more than once, each attempt's status (null: no answer): ${again
					.slice(0, 5)
					.map((entry) => JSON.stringify(entry.statuses))
					.join(', ')}`,
			);
		return { ...figures, notDelivered: notDelivered.length, deliveredAgain: again.length };
	} finally {
		await n8n.deactivate(client, workflowId);
	}
}

/** Events posted to the Webhook node in this process: each run's keys are its own. */
let webhookNodeEvents = 0;

/**
 * n8n's own Webhook node on the same machine, same follow-up: what n8n itself can take (events
 * posted straight to it, at `webhookBase`; --wan: over the link, `dispatcher` trusting its certificate).
 */
async function webhookNodeRun(
	sandbox: RunningSandbox,
	host: RunningN8n,
	workflowId: string,
	webhookBase = host.url,
	dispatcher?: Dispatcher,
): Promise<DeliveryFigures> {
	const client = await n8n.login(host);
	await n8n.activate(client, workflowId);
	try {
		const url = `${webhookBase}/webhook/${WEBHOOK_NODE_PATH}`;
		const until = Date.now() + 60_000;
		while ((await postJson(dispatcher, url, { PropID: 'warm-up' })) !== 200) {
			if (Date.now() > until)
				throw new Error('the Webhook node was not served within 60 s of activation');
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		return await timeDeliveries(sandbox, async () => {
			const key = `webhook-node-${++webhookNodeEvents}`;
			const status = await postJson(dispatcher, url, { PropID: key });
			if (status !== 200) throw new Error(`the Webhook node answered ${status}`);
			return key;
		});
	} finally {
		await n8n.deactivate(client, workflowId);
	}
}
