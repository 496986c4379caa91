/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The e2e tier's start-up around a real n8n (scripts/n8n-host.js): n8n prepared against a running
 * sandbox, started and logged in as its owner; Debian's chromium (driven by playwright-core)
 * signed in to its editor, and the editor's canvas and node panel; the tear-down; what n8n loaded
 * and the output of a workflow run; and the waits on n8n and the sandbox.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

import type { RunningSandbox } from '../../sandbox/types';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, N8nHost, PrepareOptions, RunningN8n } from '../../scripts/n8n-host';
import { until } from './until';

/** Where the e2e tier's screenshots go (not tracked). */
export const SCREENSHOTS = join(__dirname, '..', '..', '.tools', 'screenshots');

/**
 * The bound on every wait of the e2e tier for a state of n8n, the sandbox or the editor: against a
 * hang, not a budget. What works comes well within it; beside another suite's n8n on a loaded
 * 2-core machine the editor has taken more than 30 s to open a panel.
 */
const BOUND_MS = 120_000;

/** Playwright's own waits in the editor, for what a check looks for to appear (BOUND_MS at most). */
export const SHOWN = { timeout: BOUND_MS };

/** n8n and the sandbox act asynchronously: poll every 300 ms until `read` gives a value (BOUND_MS at most). */
export const waitFor = <T>(what: string, read: () => Promise<T | undefined>): Promise<T> =>
	until(what, read, BOUND_MS, 300);

export interface StartedN8n {
	/** The home `prepare` made, to start n8n on again. */
	prepared: N8nHost;
	host: RunningN8n;
	/** n8n's REST API, logged in as its owner (whom the browser signs in as). */
	client: N8nClient;
}

/**
 * n8n prepared with `options` (the sandbox's address, the workflows, the release), started with
 * `env` added to its environment, and its owner set up and logged in. When the login fails, n8n is
 * stopped and its home removed before the error is thrown.
 */
export async function startN8n(
	options: PrepareOptions,
	env: Record<string, string> = {},
): Promise<StartedN8n> {
	const prepared = await n8n.prepare(options);
	const host = await n8n.start({ ...prepared, env: { ...prepared.env, ...env } });
	try {
		return { prepared, host, client: await n8n.login(host) };
	} catch (error) {
		await stopN8n(host, undefined);
		throw error;
	}
}

/** Stops n8n, closes the sandbox and removes n8n's home; what is not there (it did not start) is passed over. */
export async function stopN8n(
	host: RunningN8n | undefined,
	sandbox: RunningSandbox | undefined,
): Promise<void> {
	await host?.stop();
	await sandbox?.close();
	if (host) rmSync(host.userFolder, { recursive: true, force: true });
}

/**
 * Debian's chromium with a page (1440 × 900) signed in to the editor of the n8n at `url` as its
 * owner (`startN8n` set the owner up). When the sign-in fails, the browser is closed before the
 * error is thrown.
 */
export async function signedInBrowser(url: string): Promise<{ browser: Browser; page: Page }> {
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		// Playwright's actions (a click waits for its element to show and take clicks) get the same bound.
		page.setDefaultTimeout(BOUND_MS);
		await page.goto(`${url}/signin`);
		await page
			.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]')
			.first()
			.fill(n8n.OWNER.email);
		await page.locator('input[type="password"]').first().fill(n8n.OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((address) => !address.pathname.includes('signin'), SHOWN);
		return { browser, page };
	} catch (error) {
		await browser.close();
		throw error;
	}
}

/**
 * n8n started as `startN8n` starts it, and a browser signed in to its editor, SCREENSHOTS made for
 * what it shoots. When the sign-in fails, n8n is stopped before the error is thrown.
 */
export async function startEditor(
	options: PrepareOptions,
): Promise<StartedN8n & { browser: Browser; page: Page }> {
	const started = await startN8n(options);
	try {
		mkdirSync(SCREENSHOTS, { recursive: true });
		return { ...started, ...(await signedInBrowser(started.host.url)) };
	} catch (error) {
		await stopN8n(started.host, undefined);
		throw error;
	}
}

/** The classes and status icons n8n 2.41 gives a node on the canvas (CanvasNodeDefault and CanvasNodeStatusIcons). */
export interface CanvasFlags {
	successClass: boolean;
	errorClass: boolean;
	warningClass: boolean;
	pinnedClass: boolean;
	checkIcon: boolean;
	issuesIcon: boolean;
	warningIcon: boolean;
	pinIcon: boolean;
}

/**
 * The editor's canvas and node panel (the NDV) on the page `page()` gives, of the n8n at
 * `n8nUrl()` (getters: both are made in a `beforeAll`), as n8n renders them. A wait that fails
 * first saves a screenshot as SCREENSHOTS/`failureShot`, when one is given, and names it.
 */
export function editor(page: () => Page, n8nUrl: () => string, failureShot?: string) {
	const canvasNode = (name: string) =>
		page().locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	const panel = () => page().locator('[data-test-id="ndv"]').first();
	const failure = async (message: string): Promise<Error> => {
		if (!failureShot) return new Error(message);
		await page().screenshot({ path: join(SCREENSHOTS, failureShot) });
		return new Error(`${message} (.tools/screenshots/${failureShot})`);
	};
	return {
		canvasNode,
		panel,
		/** Opens a workflow in the editor, and waits for its node `nodeName` on the canvas. */
		async openWorkflow(id: string, nodeName: string): Promise<void> {
			await page().goto(`${n8nUrl()}/workflow/${id}`);
			await canvasNode(nodeName)
				.waitFor(SHOWN)
				.catch(async (error: Error) => {
					throw await failure(`${error.message}; the page at ${page().url()}`);
				});
		},
		/** Opens a node's panel, as a user does: a double click on it in the canvas. */
		async openNode(name: string): Promise<void> {
			await canvasNode(name).dblclick();
			await panel().waitFor(SHOWN);
		},
		async closeNode(): Promise<void> {
			await page().keyboard.press('Escape');
			await panel().waitFor({ state: 'hidden', ...SHOWN });
		},
		/** Replaces the text of an input as a user does: a click into it, select all, typing, then Tab out of it. */
		async retype(input: Locator, text: string): Promise<void> {
			await input.click();
			await page().keyboard.press('ControlOrMeta+a');
			await page().keyboard.type(text, { delay: 50 });
			await page().keyboard.press('Tab');
		},
		canvasFlags(name: string): Promise<CanvasFlags> {
			return canvasNode(name).evaluate((node) => {
				const body = node.querySelector(
					'[data-test-id="canvas-default-node"], [data-test-id="canvas-trigger-node"]',
				);
				const classes: string[] = body ? Array.from(body.classList) : [];
				const has = (prefix: string) => classes.some((token) => token.startsWith(prefix));
				const icon = (id: string) => node.querySelector(`[data-test-id="${id}"]`) !== null;
				return {
					successClass: has('_success_'),
					errorClass: has('_error_'),
					warningClass: has('_warning_'),
					pinnedClass: has('_pinned_'),
					checkIcon: icon('canvas-node-status-success'),
					issuesIcon: icon('node-issues'),
					warningIcon: icon('canvas-node-status-warning'),
					pinIcon: icon('canvas-node-status-pinned'),
				};
			});
		},
		/** Waits until `state` reads these states of the canvas's nodes, and says what it read last when it does not. */
		async canvasShowing(
			state: (name: string) => Promise<string>,
			expected: Record<string, string>,
		): Promise<Record<string, string>> {
			let shown: Record<string, string> = {};
			try {
				return await until(
					`the canvas showing ${JSON.stringify(expected)}`,
					async () => {
						shown = {};
						for (const name of Object.keys(expected)) shown[name] = await state(name);
						return Object.keys(expected).every((name) => shown[name] === expected[name])
							? shown
							: undefined;
					},
					BOUND_MS,
					300,
				);
			} catch {
				throw await failure(
					`the canvas shows ${JSON.stringify(shown)}, not ${JSON.stringify(expected)}`,
				);
			}
		},
	};
}

/** Resolves once n8n serves a trigger's webhook with its secret: a delivery signed with it and without events then gets 400, and starts nothing. */
export const servedWithSecret = (hook: { HookUrl: string; Secret: string }) =>
	waitFor(`n8n serving ${hook.HookUrl} with its secret`, async () =>
		(
			await fetch(hook.HookUrl, {
				method: 'POST',
				headers: { authorization: `Bearer ${hook.Secret}`, 'content-type': 'application/json' },
				body: '{}',
			})
		).status === 400
			? true
			: undefined,
	);

/** The names of the node types (`nodes`) or credential types (`credentials`) the n8n at `url` loaded. */
export async function loadedTypes(
	url: string,
	client: N8nClient,
	kind: 'nodes' | 'credentials',
): Promise<string[]> {
	// Asked again when the connection drops: n8n just started on a loaded machine closed it twice.
	const types = await waitFor(`n8n's ${kind} types`, async () => {
		const response = await fetch(`${url}/types/${kind}.json`, {
			headers: { cookie: client.cookie },
		}).catch(() => undefined);
		return response?.ok ? ((await response.json()) as Array<{ name: string }>) : undefined;
	});
	return types.map((type) => type.name);
}

/** A finished execution as `n8n execute --rawOutput` prints it (scripts/n8n-host.js `execute`), and as `runWorkflow` gives a run in the running n8n: each node's runs. */
export type RunData = {
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{
					data?: { main: Array<Array<{ json: Record<string, unknown> }>> };
					error?: { message: string };
				}>
			>;
			error?: { message: string };
		};
	};
};

/** The items of a node's last run on its main output; throws when the node did not run or failed. */
export function output(run: RunData, nodeName: string): Array<Record<string, unknown>> {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs)
		throw new Error(
			`node "${nodeName}" did not run; error: ${run.data.resultData.error?.message ?? 'none'}`,
		);
	const last = runs[runs.length - 1];
	if (last.error) throw new Error(`node "${nodeName}" failed: ${last.error.message}`);
	return (last.data?.main[0] ?? []).map((item) => item.json);
}
