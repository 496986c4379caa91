/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Summarises a V8 CPU profile (`--cpu-prof`) of `n8n execute` by where the time goes: the
 * PropRadar package, n8n's credential loading (database and decryption), expressions and
 * parameters, HTTP, JSON, and the rest, with the functions that took the most time themselves.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
	children?: number[];
}
interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

const CATEGORIES: Array<[string, RegExp]> = [
	['PropRadar package', /n8n-nodes-propradar/],
	['credentials (load, decrypt, authenticate)', /credentials|Credentials|crypto-js|cipher/i],
	['database (sqlite, typeorm)', /typeorm|sqlite|@n8n\/db/],
	[
		'expressions and parameters',
		/expression|Expression|tmpl|riot|node-parameters|NodeHelpers|workflow-data-proxy|get-node-parameter|node-execution-context\/utils/,
	],
	[
		'HTTP clients (undici, axios, sockets)',
		/undici\/|axios|backend-network|follow-redirects|node:_http|node:net|node:http/,
	],
	['n8n engine (run loop, items)', /workflow-execute|execution-engine|n8n-workflow/],
];

/**
 * The largest profile in `dir` (the n8n process), summarised as text: only the samples from the
 * first one whose stack holds a function whose `file function` matches `start` (the measured
 * node's run beginning) to the last one whose stack holds a function whose file matches `within`
 * (its code), so without n8n's start-up and shut-down.
 */
export function summariseProfile(dir: string, start: RegExp, within: RegExp): string {
	const files = readdirSync(dir)
		.filter((file) => file.endsWith('.cpuprofile'))
		.map((file) => join(dir, file));
	if (files.length === 0) return 'no profile written';
	const file = files.reduce((a, b) => (statSync(a).size >= statSync(b).size ? a : b));
	const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	/** Whether the stack of a sample holds a frame that `pattern` matches (`file function`). */
	const stackMatcher = (pattern: RegExp) => {
		const known = new Map<number, boolean>();
		const matches = (id: number): boolean => {
			let found = known.get(id);
			if (found === undefined) {
				const { url, functionName } = byId.get(id)!.callFrame;
				const up = parent.get(id);
				found = pattern.test(`${url} ${functionName}`) || (up !== undefined && matches(up));
				known.set(id, found);
			}
			return found;
		};
		return matches;
	};
	const first = profile.samples.findIndex(stackMatcher(start));
	if (first < 0) return `no sample in ${String(start)}`;
	const inCode = stackMatcher(within);
	let last = profile.samples.length - 1;
	while (last > first && !inCode(profile.samples[last])) last--;
	const self = new Map<number, number>();
	for (let index = first; index <= last; index++) {
		const id = profile.samples[index];
		self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
	}
	const total = [...self.values()].reduce((a, b) => a + b, 0);
	const categories = new Map<string, number>();
	const functions = new Map<string, number>();
	for (const [id, ms] of self) {
		const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
		const name =
			functionName === '(idle)' ||
			functionName === '(program)' ||
			functionName === '(garbage collector)'
				? functionName
				: `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}`;
		functions.set(name, (functions.get(name) ?? 0) + ms);
		const category =
			functionName === '(idle)'
				? 'idle (waiting on I/O)'
				: functionName === '(garbage collector)'
					? 'garbage collector'
					: (CATEGORIES.find(([, pattern]) => pattern.test(url))?.[0] ??
						(url ? 'other JavaScript' : 'native (JSON, V8, runtime)'));
		categories.set(category, (categories.get(category) ?? 0) + ms);
	}
	const line = ([name, ms]: [string, number]) =>
		`  ${ms.toFixed(0).padStart(7)} ms  ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${name}`;
	return [
		`${file.split('/').pop()}: ${total.toFixed(0)} ms sampled from ${String(start)} to the last sample in ${String(within)}`,
		'by category (self time):',
		...[...categories].sort((a, b) => b[1] - a[1]).map(line),
		'top functions (self time):',
		...[...functions]
			.sort((a, b) => b[1] - a[1])
			.slice(0, 30)
			.map(line),
	].join('\n');
}
