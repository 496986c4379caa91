import {
	describeFailure,
	encodeQuery,
	redact,
	retryDelay,
	withoutUserPart,
} from '../../nodes/PropRadar/transport';
import { PropRadarApi } from '../../credentials/PropRadarApi.credentials';
import { SpendBudget } from '../../nodes/PropRadar/money/budget';
import { formatCents, readCents } from '../../nodes/PropRadar/money/quote';
import { Tally } from '../../nodes/PropRadar/money/ceiling';

test('query encoding: comma lists, 1/0 booleans, empty values left out', () => {
	expect(
		encodeQuery({
			Fields: ['Overview', '-Owner'],
			hasPhotos: true,
			hasNotes: false,
			Limit: 5,
			GroupName: '',
			Sort: undefined,
			PType: [],
		}),
	).toEqual({
		Fields: 'Overview,-Owner',
		hasPhotos: '1',
		hasNotes: '0',
		Limit: '5',
	});
});

test('money in integer cents; anything that is not an amount is unreadable, never $0', () => {
	expect(readCents('1.50')).toBe(150);
	expect(readCents('0.10')).toBe(10);
	expect(readCents('12')).toBe(1200);
	expect(readCents(0)).toBe(0);
	expect(readCents(2.5)).toBe(250);
	expect(readCents(0.1 + 0.2)).toBe(30);
	for (const bad of [
		undefined,
		null,
		'',
		'-5.00',
		-5,
		'abc',
		Number.NaN,
		Infinity,
		0.004,
		'0.004',
		'<html>',
		'1e3',
		{},
		[],
	]) {
		expect(readCents(bad)).toBeUndefined();
	}
	expect(formatCents(1234)).toBe('12.34');
});

test('redaction replaces every secret of four characters or more', () => {
	expect(redact('token abcd-1234 and abcd-1234 and s3cr3t', ['abcd-1234', 's3cr3t', 'ab'])).toBe(
		'token [redacted] and [redacted] and [redacted]',
	);
});

describe('addresses in messages', () => {
	test.each([
		['http://u:tok3n@127.0.0.1:8787', 'http://127.0.0.1:8787'],
		['https://tok3n@api.propradar.example/v1', 'https://api.propradar.example/v1'],
		['http://u:@host', 'http://host'],
		['http://a@b@host/x', 'http://host/x'],
		['http://u:to k3n@host', 'http://host'],
		['u:tok3n@127.0.0.1:8787', '127.0.0.1:8787'],
		['//u:tok3n@host', '//host'],
		['http://host/a@b', 'http://host/a@b'],
		['http://host?q=a@b', 'http://host?q=a@b'],
		['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
		['', ''],
	])('%j is shown as %j', (address, shown) => {
		expect(withoutUserPart(address)).toBe(shown);
	});
});

describe('the credential', () => {
	const credential = new PropRadarApi();

	test('adds the token as a bearer token', async () => {
		const options = await credential.authenticate(
			{ accessToken: 'tok3n-abcd', baseUrl: 'http://127.0.0.1:8787' },
			{ url: 'http://127.0.0.1:8787/v1/lists', headers: { Accept: 'application/json' } },
		);
		expect(options.headers).toEqual({
			Accept: 'application/json',
			Authorization: 'Bearer tok3n-abcd',
		});
	});

	test.each([
		'http://u:tok3n-abcd@127.0.0.1:8787',
		'http://tok3n-abcd@127.0.0.1:8787',
		' https://u:tok3n-abcd@api.propradar.example/',
	])(
		'refuses the Base URL %j, naming the field without echoing it (its test and every request with it)',
		async (baseUrl) => {
			let error: Error | undefined;
			await credential
				.authenticate(
					{ accessToken: 'other-token', baseUrl },
					{ url: 'http://127.0.0.1:8787/v1/lists' },
				)
				.catch((caught: Error) => (error = caught));
			expect(error?.message).toBe('Base URL: remove the user name or password (before "@")');
			expect((error as { description?: string } | undefined)?.description).toBe(
				'Enter the address without it; the token goes in Access Token.',
			);
			expect(JSON.stringify({ message: error?.message, stack: error?.stack })).not.toContain(
				'tok3n-abcd',
			);
		},
	);
});

describe('failure descriptions', () => {
	test('402 says nothing was charged and how to preview, with the service words and the eventid', () => {
		const failure = describeFailure(402, {
			error: 'Insufficient Balance',
			eventid: 'abc-def-ghi',
			message: 'Add funds to continue.',
			messageTitle: 'Balance too low',
		});
		expect(failure.message).toBe('Insufficient balance on the PropRadar account');
		expect(failure.description).toContain(
			'PropRadar says: Balance too low: Insufficient Balance: Add funds to continue. Nothing was charged.',
		);
		expect(
			describeFailure(402, { error: 'Insufficient Balance' }, undefined, {
				charging: true,
			}).description.match(/nothing was charged/gi),
		).toHaveLength(1);
		expect(failure.description).toContain('Nothing was charged');
		expect(failure.description).toContain('Preview Cost (Free)');
		expect(failure.description).toContain('abc-def-ghi');
		expect(failure.httpCode).toBe('402');
	});

	test.each([
		[401, 'access token'],
		[403, 'subscription'],
		[404, 'does not exist or belongs to another account'],
		[429, 'rate limiting'],
		[503, 'service failed'],
	])('%i gets an actionable message', (status, words) => {
		const failure = describeFailure(status, { error: 'x', eventid: 'aaa-bbb-ccc' });
		expect(`${failure.message} ${failure.description}`).toContain(words);
	});

	test('a 400 carries the service error in the message', () => {
		expect(
			describeFailure(400, { error: 'Unexpected Criterion', eventid: 'a-b-c' }).message,
		).toContain('Unexpected Criterion');
	});

	test('a body that is not the error object still yields a message, with the header request id', () => {
		expect(describeFailure(502, '<html>bad gateway</html>', 'req-id-1').description).toContain(
			'req-id-1',
		);
	});

	test("a purchase: only a 4xx with the service's error object says nothing was charged; anything else says it may have been", () => {
		expect(
			describeFailure(404, { error: 'Resource does not exist for given id' }, undefined, {
				charging: true,
			}).description,
		).toContain('nothing was charged');
		for (const [status, body] of [
			[500, { error: 'x' }],
			[502, '<html>bad gateway</html>'],
			[404, '<html>not found</html>'],
			[429, {}],
		] as const) {
			const failure = describeFailure(status, body, undefined, { charging: true });
			expect(failure.message).toContain('may have been charged');
			expect(failure.description).toContain('may have been charged');
			expect(failure.description).not.toMatch(/nothing was charged|try again later/i);
		}
	});

	test('secrets the request carried never appear in the description, whatever the service echoes', () => {
		const failure = describeFailure(
			400,
			{
				error: 'bad sandbox-token',
				message: 'Secret was hook-secret-1',
				messageTitle: 'x sandbox-token',
				eventid: 'sandbox-token',
			},
			'sandbox-token',
			{ secrets: ['sandbox-token', 'hook-secret-1'] },
		);
		expect(`${failure.message} ${failure.description}`).not.toMatch(/sandbox-token|hook-secret-1/);
	});
});

test('retry delays honour Retry-After (seconds or date), capped, else back off', () => {
	expect(retryDelay(1, '2')).toBe(2000);
	expect(retryDelay(1, '3600')).toBe(30000);
	expect(retryDelay(1, new Date(1_000_000 + 5000).toUTCString(), 1_000_000)).toBeLessThanOrEqual(
		5000,
	);
	expect(retryDelay(1)).toBe(250);
	expect(retryDelay(3)).toBe(1000);
});

describe('spend budget', () => {
	test('holds what fits, refuses what does not, settles to what was charged', () => {
		const budget = new SpendBudget(1000);
		expect(budget.hold(600)).toBeUndefined();
		expect(budget.hold(500)).toContain('Set Max Cost to at least $11.00');
		budget.settle(600, 550, 6);
		expect(budget.spent).toBe(550);
		expect(budget.bought).toBe(6);
		expect(budget.hold(450)).toBeUndefined();
		budget.release(450);
		expect(budget.hold(451)).toContain('Max Cost has $4.50 of $10.00 left');
	});

	test('a refusal by the ceiling names the ceiling and its owner, not Max Cost', () => {
		const refusal = new SpendBudget(5000, new Tally(100)).hold(200);
		expect(refusal).toContain('Spending Ceiling per Execution');
		expect(refusal).not.toContain('Max Cost');
	});

	test("runs that share the ceiling's tally share what it has left; each has its own Max Cost", () => {
		const ceiling = new Tally(1000);
		const first = new SpendBudget(800, ceiling);
		const second = new SpendBudget(800, ceiling);
		expect(first.hold(700)).toBeUndefined();
		first.settle(700, 700, 7);
		expect(second.hold(400)).toContain('has $3.00 of $10.00 left');
		expect(second.hold(300)).toBeUndefined();
		expect(ceiling.leftCents).toBe(0);
	});

	test("a charge above what was held, or an unconfirmed purchase, stops the run's buying", () => {
		const over = new SpendBudget(1000);
		over.hold(100);
		expect(over.settle(100, 150, 1)).toContain('buys nothing more');
		expect(over.hold(1)).toContain('This run buys nothing more');
		const lost = new SpendBudget(1000);
		lost.hold(300);
		lost.keepUnconfirmed(300, 'a purchase whose answer was lost');
		expect(lost.spent).toBe(300);
		expect(lost.hold(1)).toContain('may have been charged');
	});
});
