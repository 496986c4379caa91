import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox, SandboxOptions } from '../../sandbox/types';
import { call, TOKENS, type Answer, type CallOptions, type Json } from '../support/sandboxApi';

export { call, TOKENS, type Answer, type CallOptions, type Json } from '../support/sandboxApi';

export interface SandboxClient {
	readonly url: string;
	readonly sandbox: RunningSandbox;
	api(method: string, path: string, options?: CallOptions): Promise<Answer>;
	/** Like `api`, but fails the test unless the answer is 200; returns the body. */
	ok(method: string, path: string, options?: CallOptions): Promise<Json>;
	/** Credits, balance (integer cents) and charge log of an account. */
	charges(
		token?: string,
	): Promise<{ credits: number; balanceCents: number; balance: string; log: Json[] }>;
	/** Creates a list and returns its ListID. */
	createList(body: Record<string, unknown>, token?: string): Promise<number>;
	reset(): Promise<void>;
}

/**
 * Starts one sandbox for the test file (beforeAll), closes it (afterAll) and, unless told not to,
 * resets it to the seeded state before each test so that tests do not depend on each other.
 */
export function useSandbox(
	options: { resetEachTest?: boolean; sandbox?: SandboxOptions } = {},
): SandboxClient {
	let running: RunningSandbox | undefined;
	const client: SandboxClient = {
		get url() {
			if (!running) throw new Error('the sandbox is not running');
			return running.url;
		},
		get sandbox() {
			if (!running) throw new Error('the sandbox is not running');
			return running;
		},
		api: (method, path, callOptions) => call(client.url, method, path, callOptions),
		async ok(method, path, callOptions) {
			const answer = await client.api(method, path, callOptions);
			if (answer.status !== 200)
				throw new Error(
					`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
				);
			return answer.body;
		},
		async charges(token = TOKENS.main) {
			return client.ok('GET', `/_sandbox/charges?token=${encodeURIComponent(token)}`, {
				token: null,
			});
		},
		async createList(body, token = TOKENS.main) {
			const created = await client.ok('POST', '/v1/lists', { body, token });
			return created.results[0].ListID as number;
		},
		async reset() {
			await client.ok('POST', '/_sandbox/reset', { token: null });
		},
	};
	beforeAll(async () => {
		running = await startSandbox({ port: 0, ...(options.sandbox ?? {}) });
	});
	afterAll(async () => {
		await running?.close();
	});
	if (options.resetEachTest !== false) {
		beforeEach(() => client.reset());
	}
	return client;
}

/** A preview (`Purchase=0`) that the free credits cover: no records, no cost, the credits left. */
export const freeQuote = (credits: number) => ({
	results: [],
	totalCost: '0.00',
	quantityFreeRemaining: credits,
});

const EVENT_ID = /^[0-9a-z]{3}-[0-9a-z]{3}-[0-9a-z]{3}$/;

/**
 * Asserts the error object of the lists document: the status, `error` (and its text when given), an
 * `eventid` of the form xxx-xxx-xxx repeated in the `X-Prop-Request-Id` header.
 */
export function expectError(answer: Answer, status: number, error?: string | RegExp): Json {
	expect({ status: answer.status, body: answer.body }).toMatchObject({
		status,
		body: { error: expect.any(String), eventid: expect.stringMatching(EVENT_ID) },
	});
	expect(answer.headers.get('x-prop-request-id')).toBe(answer.body.eventid);
	if (typeof error === 'string') expect(answer.body.error).toBe(error);
	else if (error) expect(answer.body.error).toMatch(error);
	return answer.body;
}

/** A property's searchable basics, read (and paid for) through the API. */
export async function readProperty(
	sb: SandboxClient,
	propId: string,
	fields = 'PropID,Address,City,State,ZipFive,County,APN,PType,Beds,ListingStatus',
): Promise<Json> {
	const body = await sb.ok('GET', `/v1/properties/${propId}?Purchase=1&Fields=${fields}`);
	return body.results[0];
}
