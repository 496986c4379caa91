// `npm run check:live [-- --with-writes]`: which of the node's guesses about PropRadar hold (docs/api.md,
// "Every guess"). With PROPRADAR_TOKEN and PROPRADAR_BASE_URL set, it calls every free endpoint and
// quotes every charging one with Purchase=0, compares each answer with what the node expects, and
// prints a table: confirmed, different (what arrived) or not checked. It never sends Purchase=1. It
// writes nothing unless given --with-writes: then it creates one temporary import list, quotes an
// import into it, and deletes it. PROPRADAR_PERSON_KEY (optional) names a person to quote records,
// phone and e-mail for. Exit code: 0 all held, 1 something differs, 2 it could not run.
const vocabulary = await import('../nodes/PropRadar/shared/vocabulary.ts');

const TOKEN = process.env.PROPRADAR_TOKEN ?? '';
const BASE = (process.env.PROPRADAR_BASE_URL ?? '').replace(/\/+$/, '');
const PERSON_KEY = process.env.PROPRADAR_PERSON_KEY ?? '';
const WITH_WRITES = process.argv.includes('--with-writes');
const EVENT_ID = /^[0-9a-z]{3}-[0-9a-z]{3}-[0-9a-z]{3}$/i;
const DECIMAL = /^\d+(\.\d{1,2})?$/;
const ENVELOPE = new Set([
	'results',
	'totalCost',
	'resultCount',
	'quantityFreeRemaining',
	'totalResultCount',
	'updateCount',
	'deleteCount',
]);

const rows = [];
const row = (check, result, detail = '') => {
	rows.push({ check, result, detail });
};

/** The one way this script calls the service: Purchase=1 and unflagged writes are refused here. */
async function call(method, path, { query = {}, body, token = TOKEN } = {}) {
	if (String(query.Purchase ?? '0') !== '0')
		throw new Error(`refused to send Purchase=${query.Purchase}`);
	const quote = query.Purchase === 0 || query.Purchase === '0';
	const read = method === 'GET' || (method === 'POST' && (path === '/v1/properties' || quote));
	if (!read && !WITH_WRITES)
		throw new Error(`refused to write without --with-writes: ${method} ${path}`);
	const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
	const url = `${BASE}${path}${search.size ? `?${search}` : ''}`;
	const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };
	if (body !== undefined) headers['Content-Type'] = 'application/json';
	const response = await fetch(url, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
		redirect: 'manual',
	});
	const text = await response.text();
	let json;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, body: json, text };
}

const shown = (value) => {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An answer the node takes: 200, a JSON object, `results` an array. Returns what differs, or ''. */
function envelopeDifference(answer) {
	if (answer.status !== 200) return `status ${answer.status}: ${shown(answer.body ?? answer.text)}`;
	if (!isObject(answer.body)) return `not a JSON object: ${shown(answer.body ?? answer.text)}`;
	if (!Array.isArray(answer.body.results))
		return `no results array: keys ${Object.keys(answer.body).join(', ') || '(none)'}`;
	return '';
}

function extraKeys(record, known) {
	return Object.keys(record).filter((key) => !known.has(key));
}

/** A list, webhook or item read: the envelope, and record fields the node's vocabulary knows. */
async function checkRead(name, path, query, knownFields) {
	const answer = await call('GET', path, { query });
	const differs = envelopeDifference(answer);
	if (differs) return (row(name, 'different', differs), undefined);
	const extras = [
		...extraKeys(answer.body, ENVELOPE),
		...new Set(answer.body.results.flatMap((r) => (isObject(r) ? extraKeys(r, knownFields) : []))),
	];
	if (extras.length > 0)
		row(name, 'different', `fields the node does not know: ${extras.join(', ')}`);
	else row(name, 'confirmed', `${answer.body.results.length} records`);
	return answer.body.results;
}

/** A quote (Purchase=0): no records, totalCost a decimal string, resultCount and quantityFreeRemaining whole numbers. */
async function checkQuote(name, method, path, query, body) {
	const answer = await call(method, path, { query: { ...query, Purchase: 0 }, body });
	const differs = envelopeDifference(answer);
	if (differs) return (row(name, 'different', differs), undefined);
	const quote = answer.body;
	const problems = [];
	if (typeof quote.totalCost !== 'string' || !DECIMAL.test(quote.totalCost))
		problems.push(`totalCost ${shown(quote.totalCost)} (${typeof quote.totalCost})`);
	if (!Number.isInteger(quote.resultCount))
		problems.push(`resultCount ${shown(quote.resultCount)}`);
	if (!Number.isInteger(quote.quantityFreeRemaining))
		problems.push(`quantityFreeRemaining ${shown(quote.quantityFreeRemaining)}`);
	if (quote.results.length > 0) problems.push(`${quote.results.length} records in a quote`);
	const extras = extraKeys(quote, ENVELOPE);
	if (extras.length > 0) problems.push(`fields the node does not know: ${extras.join(', ')}`);
	if (problems.length > 0) row(name, 'different', problems.join('; '));
	else row(name, 'confirmed', `${quote.resultCount} records, ${quote.totalCost}`);
	return quote;
}

/** An error the node reads: the error object, eventid xxx-xxx-xxx, repeated in X-Prop-Request-Id. */
function checkError(name, answer, status, text) {
	const body = answer.body;
	const problems = [];
	if (answer.status !== status) problems.push(`status ${answer.status}`);
	if (!isObject(body) || typeof body.error !== 'string')
		problems.push(`body ${shown(body ?? answer.text)}`);
	else {
		if (text && body.error !== text) problems.push(`error ${shown(body.error)}`);
		if (typeof body.eventid !== 'string' || !EVENT_ID.test(body.eventid))
			problems.push(`eventid ${shown(body.eventid)}`);
		const header = answer.headers.get('x-prop-request-id');
		if (header !== (body.eventid ?? null)) problems.push(`X-Prop-Request-Id ${shown(header)}`);
	}
	row(
		name,
		problems.length ? 'different' : 'confirmed',
		problems.join('; ') || `${status} ${body.error}`,
	);
}

async function checkLists() {
	const known = new Set(vocabulary.LIST_FIELDS);
	const lists = (await checkRead('GET /v1/lists', '/v1/lists', {}, known)) ?? [];
	const first = lists[0];
	if (!first) return row('GET /v1/lists/{ListID}', 'not checked', 'the account has no list');
	const one = await checkRead('GET /v1/lists/{ListID}', `/v1/lists/${first.ListID}`, {}, known);
	if (one && (one.length !== 1 || one[0].ListID !== first.ListID))
		row(
			'  one list, the one asked',
			'different',
			`${one.length} records, ${shown(one[0]?.ListID)}`,
		);
	const types = [];
	if (typeof first.ListID !== 'number') types.push(`ListID ${shown(first.ListID)}`);
	if (first.TotalCount !== undefined && typeof first.TotalCount !== 'string')
		types.push(`TotalCount ${shown(first.TotalCount)} (${typeof first.TotalCount})`);
	row(
		'list types (ListID integer, TotalCount string)',
		types.length ? 'different' : 'confirmed',
		types.join('; '),
	);
	await checkRead(
		'GET /v1/lists/{ListID}/automations',
		`/v1/lists/${first.ListID}/automations`,
		{},
		new Set(['Name', ...Object.keys(vocabulary.EMPTY_AUTOMATION)]),
	);
	return lists;
}

async function checkListItems(lists) {
	const list = lists.find((l) => Number(l.TotalCount) >= 3);
	if (!list)
		return row('GET /v1/lists/{ListID}/items, paging', 'not checked', 'no list of 3 items or more');
	const path = `/v1/lists/${list.ListID}/items`;
	const known = new Set(['PropID', ...vocabulary.PROPERTY_FIELDS]);
	const page = await checkRead('GET /v1/lists/{ListID}/items', path, { Limit: 2 }, known);
	if (!page) return;
	const next = await call('GET', path, { query: { Start: 1, Limit: 1 } });
	const same = next.body?.results?.[0]?.PropID === page[1]?.PropID;
	row(
		'list items: Start from 0, Limit a page',
		same && page.length === 2 ? 'confirmed' : 'different',
		same
			? ''
			: `Limit=2 gave ${page.length}; Start=1 gave ${shown(next.body?.results?.[0]?.PropID)}`,
	);
	const max = vocabulary.PAGE_LIMITS.listItems.maxLimit;
	const big = await call('GET', path, { query: { Limit: max } });
	const count = big.body?.results?.length;
	const whole = Math.min(max, Number(list.TotalCount));
	if (big.status !== 200)
		row(`list items: Limit ${max} taken`, 'different', `status ${big.status}: ${shown(big.body)}`);
	else if (count < whole)
		row(
			`list items: Limit ${max} taken`,
			'different',
			`a page of ${count} where TotalCount ${list.TotalCount}: a page cut short`,
		);
	else row(`list items: Limit ${max} taken`, 'confirmed', `${count} items`);
	return page[0]?.PropID;
}

async function checkProperties(propId) {
	const criteria = {
		Criteria: [{ name: 'State', value: ['AZ', 'CA', 'FL', 'OR', 'TX', 'WA', 'NY'] }],
	};
	const max = vocabulary.PAGE_LIMITS.properties.maxLimit;
	const quote = await checkQuote(
		'POST /v1/properties (quote)',
		'POST',
		'/v1/properties',
		{ Limit: max, Fields: 'PropID' },
		criteria,
	);
	if (quote) {
		const total = quote.totalResultCount;
		if (!Number.isInteger(total))
			row('property search: totalResultCount', 'different', `totalResultCount ${shown(total)}`);
		else if (quote.resultCount < Math.min(max, total))
			row(
				`property search: Limit ${max} taken`,
				'different',
				`quoted ${quote.resultCount} of ${total}: a page cut short`,
			);
		else
			row(`property search: Limit ${max} taken`, 'confirmed', `${quote.resultCount} of ${total}`);
	}
	if (!propId)
		return row('property reads', 'not checked', 'no PropID: the account has no list items');
	const base = `/v1/properties/${encodeURIComponent(propId)}`;
	await checkQuote('GET /v1/properties/{PropID} (quote)', 'GET', base, {
		Fields: 'PropID,Overview',
	});
	await checkQuote('GET /v1/properties/{PropID}/persons (quote)', 'GET', `${base}/persons`, {});
	for (const sub of ['evictions', 'comps/sales', 'comps/forsale', 'parcels', 'transactions'])
		await checkQuote(`GET /v1/properties/{PropID}/${sub} (quote)`, 'GET', `${base}/${sub}`, {});
}

async function checkPerson() {
	if (!PERSON_KEY)
		return row(
			'person records, phone, e-mail (quotes)',
			'not checked',
			'set PROPRADAR_PERSON_KEY to a PersonKey of the account',
		);
	const base = `/v1/persons/${encodeURIComponent(PERSON_KEY)}`;
	for (const kind of vocabulary.PERSON_RECORD_KINDS)
		await checkQuote(`GET /v1/persons/{PersonKey}/${kind} (quote)`, 'GET', `${base}/${kind}`, {});
	for (const what of ['Phone', 'Email'])
		await checkQuote(`POST /v1/persons/{PersonKey}/${what} (quote)`, 'POST', `${base}/${what}`, {});
}

async function checkErrors() {
	checkError(
		'401 for a wrong token',
		await call('GET', '/v1/lists', { token: 'not-a-valid-token' }),
		401,
	);
	checkError(
		'404 for a missing ID',
		await call('GET', '/v1/lists/987654321'),
		404,
		'Resource does not exist for given id',
	);
	const answer = await call('GET', '/v1/lists', { query: { Limit: 1 } });
	const type = answer.headers.get('content-type') ?? '';
	row(
		'Content-Type application/json',
		/^application\/json/.test(type) ? 'confirmed' : 'different',
		type,
	);
}

async function checkWrites() {
	const checks = [
		'POST /v1/lists (create)',
		'POST /v1/lists/{ListID}/import/items (quote)',
		'DELETE /v1/lists/{ListID}',
	];
	if (!WITH_WRITES)
		return checks.forEach((name) => row(name, 'not checked', 'a write: run with --with-writes'));
	const created = await call('POST', '/v1/lists', {
		body: { ListName: `check-live ${Date.now()}`, ListType: 'import', ImportSource: 'api' },
	});
	const listId = created.body?.results?.[0]?.ListID;
	const shape = Number.isInteger(listId) && typeof created.body.results[0].TotalCount === 'string';
	row(
		checks[0],
		shape ? 'confirmed' : 'different',
		shape ? `ListID ${listId}` : shown(created.body),
	);
	if (!Number.isInteger(listId)) return row(checks[2], 'not checked', 'no list was created');
	try {
		await checkQuote(checks[1], 'POST', `/v1/lists/${listId}/import/items`, {}, [
			{ Address: '1 Main St', City: 'Portland', State: 'OR' },
		]);
	} finally {
		const deleted = await call('DELETE', `/v1/lists/${listId}`);
		const ok = deleted.status === 200 && deleted.body?.deleteCount === 1;
		row(
			checks[2],
			ok ? 'confirmed' : 'different',
			ok ? '' : `status ${deleted.status}: ${shown(deleted.body)}`,
		);
	}
}

function print() {
	const width = Math.max(...rows.map((r) => r.check.length));
	console.log(`${'check'.padEnd(width)}  ${'result'.padEnd(11)}  detail`);
	for (const r of rows)
		console.log(`${r.check.padEnd(width)}  ${r.result.padEnd(11)}  ${r.detail}`);
	const count = (result) => rows.filter((r) => r.result === result).length;
	console.log(
		`\n${count('confirmed')} confirmed, ${count('different')} different, ${count('not checked')} not checked`,
	);
	console.log(
		'Never checked here: webhook delivery bodies, 429 and Retry-After, a purchase (Purchase=1).',
	);
}

async function main() {
	if (!TOKEN || !/^https?:\/\//.test(BASE)) {
		console.error(
			'Set PROPRADAR_TOKEN and PROPRADAR_BASE_URL (e.g. https://api.propradar.example).',
		);
		return 2;
	}
	const lists = (await checkLists()) ?? [];
	await checkRead(
		'GET /v1/integrations/webhooks',
		'/v1/integrations/webhooks',
		{},
		new Set(vocabulary.WEBHOOK_FIELDS),
	);
	await checkRead(
		'GET /v1/accounts/members',
		'/v1/accounts/members',
		{},
		new Set(['MemberKey', 'UserName', 'UserEmail', 'Role', 'Status']),
	);
	await checkRead(
		'GET /v1/accounts/preferences/statuses',
		'/v1/accounts/preferences/statuses',
		{},
		new Set(['Value', 'Label']),
	);
	const importList = lists.find((l) => l.ListType === 'import');
	if (importList)
		await checkRead(
			'GET /v1/lists/{ListID}/import/items',
			`/v1/lists/${importList.ListID}/import/items`,
			{ Limit: 5 },
			new Set(vocabulary.IMPORT_ITEM_FIELDS),
		);
	else row('GET /v1/lists/{ListID}/import/items', 'not checked', 'the account has no import list');
	const propId = await checkListItems(lists);
	await checkProperties(propId);
	await checkPerson();
	await checkErrors();
	await checkWrites();
	print();
	return rows.some((r) => r.result === 'different') ? 1 : 0;
}

process.exitCode = await main().catch((error) => {
	console.error(`check:live stopped: ${error.message}`);
	return 2;
});
