import { describeFailure, encodeQuery, formatCents, retryDelay, toCents } from '../../nodes/PropRadar/transport';
import { SpendBudget } from '../../nodes/PropRadar/shared/charges';

test('query encoding: comma lists, 1/0 booleans, empty values left out', () => {
	expect(encodeQuery({ Fields: ['Overview', '-Owner'], hasPhotos: true, hasNotes: false, Limit: 5, GroupName: '', Sort: undefined, PType: [] })).toEqual({
		Fields: 'Overview,-Owner',
		hasPhotos: '1',
		hasNotes: '0',
		Limit: '5',
	});
});

test('money in integer cents', () => {
	expect(toCents('1.50')).toBe(150);
	expect(toCents('0.10')).toBe(10);
	expect(toCents(undefined)).toBe(0);
	expect(formatCents(1234)).toBe('12.34');
	expect(() => toCents('abc')).toThrow('Not an amount');
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
		expect(failure.description).toContain('PropRadar says: Balance too low: Insufficient Balance: Add funds to continue. Nothing was charged.');
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
		expect(describeFailure(400, { error: 'Unexpected Criterion', eventid: 'a-b-c' }).message).toContain('Unexpected Criterion');
	});

	test('a body that is not the error object still yields a message, with the header request id', () => {
		expect(describeFailure(502, '<html>bad gateway</html>', 'req-id-1').description).toContain('req-id-1');
	});
});

test('retry delays honour Retry-After (seconds or date), capped, else back off', () => {
	expect(retryDelay(1, '2')).toBe(2000);
	expect(retryDelay(1, '3600')).toBe(30000);
	expect(retryDelay(1, new Date(1_000_000 + 5000).toUTCString(), 1_000_000)).toBeLessThanOrEqual(5000);
	expect(retryDelay(1)).toBe(250);
	expect(retryDelay(3)).toBe(1000);
});

describe('spend budget', () => {
	test('reserves what fits, refuses what does not, settles to what was charged', () => {
		const budget = new SpendBudget(1000, 'Max Cost');
		expect(budget.tryReserve(600)).toBeUndefined();
		expect(budget.tryReserve(500)).toContain('Nothing was charged');
		budget.settle(600, 550);
		expect(budget.spent).toBe(550);
		expect(budget.tryReserve(450)).toBeUndefined();
		budget.release(450);
		expect(budget.leftCents).toBe(450);
	});
});
