/**
 * The e2e tier's start-up around a real n8n (scripts/n8n-host.js): n8n prepared against a running
 * sandbox, started and logged in as its owner; Debian's chromium (driven by playwright-core)
 * signed in to its editor, and the editor's canvas and node panel; the tear-down; and the output
 * of a workflow `n8n execute` ran.
 */
import { rmSync } from 'node:fs';

import { chromium, type Browser, type Page } from 'playwright-core';

import type { RunningSandbox } from '../../sandbox/types';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, N8nHost, PrepareOptions, RunningN8n } from '../../scripts/n8n-host';

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
		await page.goto(`${url}/signin`);
		await page
			.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]')
			.first()
			.fill(n8n.OWNER.email);
		await page.locator('input[type="password"]').first().fill(n8n.OWNER.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((address) => !address.pathname.includes('signin'), { timeout: 60_000 });
		return { browser, page };
	} catch (error) {
		await browser.close();
		throw error;
	}
}

/** Playwright's own waits in the editor: up to this long for what a check looks for to appear. */
export const SHOWN = { timeout: 30_000 };

/**
 * The editor's canvas and node panel (the NDV) on the page `page()` gives (a getter: the page is
 * opened in a `beforeAll`), as n8n renders them.
 */
export function editor(page: () => Page) {
	const canvasNode = (name: string) =>
		page().locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	const panel = () => page().locator('[data-test-id="ndv"]').first();
	return {
		canvasNode,
		panel,
		/** Opens a node's panel, as a user does: a double click on it in the canvas. */
		async openNode(name: string): Promise<void> {
			await canvasNode(name).dblclick();
			await panel().waitFor(SHOWN);
		},
		async closeNode(): Promise<void> {
			await page().keyboard.press('Escape');
			await panel().waitFor({ state: 'hidden', ...SHOWN });
		},
	};
}

/** What `n8n execute --rawOutput` prints (scripts/n8n-host.js `execute`): each node's runs. */
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
