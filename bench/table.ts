/**
 * The benchmark's results as a table: what `npm run bench` prints and docs/performance.md
 * shows (no side effects, so test/unit/readme.test.ts can render bench/results.json).
 */

/** New matches fired at the same time into the trigger's list. */
export const TRIGGER_IN_FLIGHT = 50;

/**
 * The settings of n8n's expression engine the trigger and the Webhook node run again under, each
 * in an n8n started again with it: n8n 2.41 evaluates expressions in an isolate it builds for each
 * execution (and, with lazy acquisition, only when an expression reaches it), which is what limits
 * deliveries a second (docs/design.md).
 */
export const ENGINE_SETTINGS = [
	{
		name: 'isolates',
		env: {
			N8N_EXPRESSION_ENGINE_COMPILE_CACHE: 'true',
			N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
		},
		says: 'its isolates kept, each built from a compiled bundle and taken only when an expression is evaluated',
	},
	{
		name: 'legacy',
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
		says: 'its evaluator without an isolate',
	},
] as const;

/**
 * n8n's queue mode on the same machine: the trigger and the Webhook node again, their deliveries
 * answered by a webhook process and executed by a worker (scripts/n8n-host.js `startQueue`).
 */
const QUEUE_WORKERS = 1;
const QUEUE_CONCURRENCY = 10;
export const QUEUE_MODE = {
	workers: QUEUE_WORKERS,
	concurrency: QUEUE_CONCURRENCY,
	says: `Redis, one main process, one webhook process answering the deliveries and ${QUEUE_WORKERS} worker${QUEUE_WORKERS === 1 ? '' : 's'} running them, ${QUEUE_CONCURRENCY} at a time${QUEUE_WORKERS === 1 ? '' : ' each'}`,
};

/** How a setting is written in the table: its variables as set. */
export const settingText = (env: Record<string, string>) =>
	Object.entries(env)
		.map(([name, value]) => `\`${name}=${value}\``)
		.join(' and ');

export interface Row {
	job: string;
	propRadarMs: number;
	httpRequestMs?: number;
	rawMs?: number;
	rawNote?: string;
	ratio: number;
	ratioOf: string;
	target: string;
	met: boolean;
	/** The same input through one of n8n's own nodes doing only n8n's part of the job (no request): shown under the row. */
	n8nAlone?: { what: string; ms: number };
	/**
	 * The same job with each workflow run in a fresh `n8n execute` process (n8n starting up on the
	 * same thread as the run) and the raw client's timed run its process's first: shown under the row.
	 */
	fresh?: {
		propRadarMs: number;
		httpRequestMs?: number;
		rawNote: string;
		ratio: number;
		met: boolean;
	};
	/** Each round's figures, when the times are medians of several rounds. */
	rounds?: Array<Record<string, number>>;
}

export const fmt = (value: number | undefined, digits = 0) =>
	value === undefined
		? ''
		: value.toLocaleString('en-US', {
				maximumFractionDigits: digits,
				minimumFractionDigits: digits,
			});

export type Result = {
	command: string;
	machine: {
		cpus: number;
		cpu?: string;
		memoryGiB: number;
		node: string;
		loadBefore: number[];
		loadAfter: number[];
	};
	date: string;
	/** The n8n release the benchmark ran on. */
	n8n: string;
	/** How many rounds the per-item, Return All and Import times are the median of. */
	rounds?: number;
	/**
	 * With --wan: the link n8n and the raw client reached the sandbox over (bench/wanLink.ts); the
	 * trigger's deliveries and the Webhook node's events reached n8n over a second one like it.
	 */
	link?: { oneWayMs: number };
	/** Full collections of n8n's heap asked for before the runs timed in the running n8n (bench/collector.ts). */
	collectionsBeforeRuns?: number;
	/** Full collections of the sandbox's process, one before every timed run (run.ts, `collectSandbox`). */
	sandboxCollections?: number;
	rows: Row[];
	sandbox: {
		simpleReadsPerSecond: number;
		bareServerReadsPerSecond: number;
		simpleReadsMet: boolean;
	};
	trigger: Record<string, unknown>;
	webhookNode?: Record<string, unknown>;
	/** The trigger and the Webhook node again, n8n started with each of `ENGINE_SETTINGS`, by its name. */
	engineSettings?: Array<{
		name: string;
		trigger: Record<string, unknown>;
		webhookNode: Record<string, unknown>;
	}>;
	/** The trigger and the Webhook node again, n8n in queue mode (`QUEUE_MODE`); not run over the link. */
	queueMode?: { trigger: Record<string, unknown>; webhookNode: Record<string, unknown> };
	growth: Array<{ job: string; size: number; ms: number; peakMiB?: number; msPer1000: number }>;
};

const yes = (met: boolean) => (met ? 'yes' : '**no**');

/** The HTTP Request node's time; a job it was left out of (its import over the WAN link) says so. */
const httpRequestCell = (row: Row, ms: number | undefined) =>
	ms !== undefined ? `${fmt(ms)} ms` : row.fresh ? 'not run' : '';

/**
 * The trigger's row and the Webhook node's beside it; `setting` says how n8n was started, when not
 * as it comes, and `note` what that setting does, as a sentence of its own.
 */
function triggerRows(
	setting: string,
	trigger: Record<string, unknown>,
	webhookNode: Record<string, unknown> | undefined,
	note = '',
): string[] {
	if (trigger.deliveries === undefined) return [];
	const after = note ? ` ${note}` : '';
	const rows = [
		`| Trigger${setting}: ${String(trigger.deliveries)} deliveries into an activated workflow (${TRIGGER_IN_FLIGHT} events at a time; ${String(trigger.deliveredAgain)} delivered again after a 5xx or timeout).${after} | ${fmt(Number(trigger.deliveriesPerSecond), 1)} /s; p50 ${fmt(Number(trigger.p50Ms))} ms, p95 ${fmt(Number(trigger.p95Ms))} ms from the event to the execution's CRM post; ${String(trigger.lost)} lost, ${String(trigger.duplicated)} duplicated | | | | >= 50 /s, 0 lost, 0 duplicated | ${yes(Boolean(trigger.met))} |`,
	];
	if (webhookNode?.deliveries !== undefined) {
		rows.push(
			`| The same follow-up behind n8n's own Webhook node${setting} (${String(webhookNode.deliveries)} events posted to it, ${TRIGGER_IN_FLIGHT} at a time): what n8n itself takes on this machine.${after} | ${fmt(Number(webhookNode.deliveriesPerSecond), 1)} /s; p50 ${fmt(Number(webhookNode.p50Ms))} ms, p95 ${fmt(Number(webhookNode.p95Ms))} ms; ${String(webhookNode.lost)} lost, ${String(webhookNode.duplicated)} duplicated | | | ${fmt(Number(trigger.deliveriesPerSecond) / Number(webhookNode.deliveriesPerSecond), 2)} (PropRadar Trigger / Webhook node) | | |`,
		);
	}
	return rows;
}

/** A phrase as a sentence of its own: a capital first, a full stop last. */
const sentence = (phrase: string) => `${phrase[0].toUpperCase()}${phrase.slice(1)}.`;

/** With --wan, what went over the link: empty on loopback. */
function linkText(result: Result): string {
	if (!result.link) return '';
	const api = ` n8n and the raw client reach the sandbox over TLS, through a link of ${fmt(result.link.oneWayMs)} ms each way; a new connection takes one round trip more. The sandbox's own rows are on loopback.`;
	if (result.trigger.deliveries === undefined) return api;
	return `${api} The sandbox's deliveries to the trigger, and the events posted to n8n's own Webhook node, reach n8n through a second such link. TLS ends in front of n8n's webhooks, and n8n's webhook URL is the link's, so that is what the trigger registers. Each workflow's post to the CRM stand-in goes over the first link. The trigger in queue mode is in the loopback table only.`;
}

/** How the rows were run, in sentences: rounds, heap collections, the raw client, fresh processes. */
function methodText(result: Result): string {
	const rounds =
		result.rounds && result.rounds > 1
			? ` Per-item, Return All and Import are each the median of ${result.rounds} rounds. The rounds in the running n8n come first, each running that job's cases there and the raw client's one after another; then come the rounds of fresh processes.`
			: result.rounds === 1
				? ' Each time is from one round.'
				: '';
	if (!result.rows.some((row) => row.fresh)) return rounds;
	return [
		rounds,
		' Their first rows are runs in the running n8n: each workflow active, called at its Webhook node, and run once before the rounds.',
		result.collectionsBeforeRuns
			? ` Before each run, n8n's heap had a full garbage collection (${fmt(result.collectionsBeforeRuns)} in all), so that no run pays for the garbage of the one before. That is V8's ordinary full collection, which leaves n8n's young generation as its runs grew it.`
			: '',
		result.sandboxCollections
			? ` The sandbox's heap, in the benchmark's own process, was fully collected before every timed run of the node or the raw client (${fmt(result.sandboxCollections)} in all).`
			: '',
		' Beside them, a raw client is timed on its second run of the job; the first is untimed and free.',
		' The growth table, like the rows "each workflow run in a fresh `n8n execute` process", runs each workflow in an `n8n execute` of its own, which measures its peak memory.',
	].join('');
}

/** The results as docs/performance.md shows them. */
export function markdown(result: Result): string {
	const overLink = result.link ? ', over the link' : '';
	const lines = [
		`\`${result.command}\`, ${result.date.slice(0, 10)}: n8n ${result.n8n}, ${result.machine.node}, ${result.machine.cpus} cores (${result.machine.cpu ?? 'unknown CPU'}), ${result.machine.memoryGiB} GiB. Load average ${result.machine.loadBefore.map((l) => l.toFixed(1)).join(' / ')} before, ${result.machine.loadAfter.map((l) => l.toFixed(1)).join(' / ')} after.${linkText(result)} Node time is n8n's \`executionTime\` of the node.${methodText(result)}`,
		'',
		'| job | PropRadar node | HTTP Request node | raw client (fetch) | ratio | target | met |',
		'| --- | ---: | ---: | --- | --- | --- | --- |',
		...result.rows.flatMap((row) => [
			`| ${row.job} | ${fmt(row.propRadarMs, row.propRadarMs < 10 ? 2 : 0)} ms | ${httpRequestCell(row, row.httpRequestMs)} | ${row.rawNote ?? (row.rawMs === undefined ? '' : `${fmt(row.rawMs, row.rawMs < 10 ? 2 : 0)} ms`)} | ${fmt(row.ratio, 2)} (${row.ratioOf}) | ${row.target} | ${yes(row.met)} |`,
			...(row.n8nAlone === undefined
				? []
				: [
						`| ${row.n8nAlone.what} | ${fmt(row.n8nAlone.ms)} ms | | | ${row.httpRequestMs === undefined || !row.ratioOf.startsWith('HTTP Request') ? '' : `${fmt(row.httpRequestMs / row.n8nAlone.ms, 2)} (HTTP Request / n8n alone)`} | | |`,
					]),
			...(row.fresh === undefined
				? []
				: [
						`| The same, each workflow run in a fresh \`n8n execute\` process and the raw client's run its process's first | ${fmt(row.fresh.propRadarMs)} ms | ${httpRequestCell(row, row.fresh.httpRequestMs)} | ${row.fresh.rawNote} | ${fmt(row.fresh.ratio, 2)} | ${row.target} | ${yes(row.fresh.met)} |`,
					]),
		]),
		`| Sandbox: simple reads (GET /v1/lists/{id}, 10 connections, load from a second process) | ${fmt(result.sandbox.simpleReadsPerSecond)} /s | | a bare node:http server with the same answer: ${fmt(result.sandbox.bareServerReadsPerSecond)} /s | ${fmt(result.sandbox.simpleReadsPerSecond / result.sandbox.bareServerReadsPerSecond, 2)} (sandbox / bare server) | >= 3,000 /s | ${yes(result.sandbox.simpleReadsMet)} |`,
		...triggerRows(overLink, result.trigger, result.webhookNode),
		...(result.engineSettings ?? []).flatMap(({ name, trigger, webhookNode }) => {
			const setting = ENGINE_SETTINGS.find((candidate) => candidate.name === name);
			return setting
				? triggerRows(
						`${overLink}, n8n started with ${settingText(setting.env)}`,
						trigger,
						webhookNode,
						sentence(setting.says),
					)
				: triggerRows(`${overLink}, n8n started with ${name}`, trigger, webhookNode);
		}),
		...(result.queueMode
			? triggerRows(
					', n8n in queue mode',
					result.queueMode.trigger,
					result.queueMode.webhookNode,
					sentence(QUEUE_MODE.says),
				)
			: []),
		'',
		'| growth (PropRadar node) | items | node time | per 1,000 | peak memory of n8n |',
		'| --- | ---: | ---: | ---: | ---: |',
		...result.growth.map(
			(g) =>
				`| ${g.job} | ${fmt(g.size)} | ${fmt(g.ms)} ms | ${fmt(g.msPer1000, 1)} ms | ${g.peakMiB === undefined ? '' : `${fmt(g.peakMiB)} MiB`} |`,
		),
	];
	return lines.join('\n');
}
