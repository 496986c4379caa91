/**
 * Forms the API documents give, through the node and the sandbox: their own example
 * `Fields=overview,Persons`, the List table's `Criteria` read back, and the fields of records whose
 * fields the documents leave open, sent as given for the service to take or refuse.
 */
import { createList, listRef, run, runOk, useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();
beforeEach(() => {
	sb.requests.length = 0;
});

test('Property > Get with the fieldset "overview" and the field Persons (the documents\' own example) sends Fields=Overview,Persons and returns both', async () => {
	const [property] = await runOk(sb, {
		resource: 'property',
		operation: 'get',
		propId: 'P000040',
		chargeMode: 'purchase',
		maxCost: 1,
		fields: { fieldsets: '={{ "overview" }}', include: ['Persons'] },
	});
	expect(sb.sent('/v1/properties/P000040').map((request) => request.query.get('Fields'))).toEqual([
		'Overview,Persons',
		'Overview,Persons',
	]);
	expect(property).toMatchObject({
		PropID: 'P000040',
		StatusLevel: expect.anything(),
		Persons: expect.any(Array),
	});
});

test('List > Get reads back the Criteria of a dynamic list', async () => {
	const criteria = [
		{ name: 'State', value: ['OR'] },
		{ name: 'Pool', value: [1] },
	];
	const listId = await createList(sb, {
		listName: 'pools',
		listType: 'dynamic',
		criteriaMode: 'json',
		criteriaJson: JSON.stringify(criteria),
	});
	const [list] = await runOk(sb, {
		resource: 'list',
		operation: 'get',
		listId: listRef(listId),
		fields: { include: ['ListID', 'Criteria'] },
	});
	expect(sb.sent(`/v1/lists/${listId}`, 'GET').at(-1)!.query.get('Fields')).toBe('ListID,Criteria');
	expect(list).toEqual({ ListID: listId, Criteria: criteria });
});

describe('Person > Get Records, whose fields the documents leave open', () => {
	const liens = {
		resource: 'person',
		operation: 'getRecords',
		personKey: 'K000010A',
		recordKind: 'liens',
		returnAll: true,
		chargeMode: 'preview',
	};

	test("a field the documents do not list is sent as given; the service's refusal of it is the node's error, naming it", async () => {
		const result = await run(sb, {
			...liens,
			fields: { include: ['LienAmount'], other: 'LienCounty' },
		});
		expect(
			sb.sent('/v1/persons/K000010A/liens').map((request) => request.query.get('Fields')),
		).toEqual(['LienAmount,LienCounty']);
		expect(result.error?.message).toContain('LienCounty');
	});

	test('a name that cannot be a field is refused before anything is sent, named', async () => {
		const result = await run(sb, { ...liens, fields: { other: 'Lien County' } });
		expect(result.error?.message).toBe('Fields: Lien County is not allowed here');
		expect(sb.requests).toEqual([]);
	});
});

describe('Automation > Configure writes a level not set as null and Triggers not set as "" (the documents type the levels as integers, where 0 is an action)', () => {
	const replace = (listId: number, automation: Record<string, unknown>) => ({
		resource: 'automation',
		operation: 'configure',
		listId: listRef(listId),
		configureMode: 'replace',
		automation,
	});

	test('what is sent', async () => {
		const listId = await createList(sb, { listName: 'levels unset', listType: 'static' });
		await runOk(sb, replace(listId, { isEnabled: false }));
		const [put] = sb.sent(`/v1/lists/${listId}/automations`, 'PUT');
		expect(JSON.parse(put.body)).toMatchObject({
			isEnabled: 0,
			SetInterestLevel: null,
			SetStatusLevel: null,
			Triggers: '',
		});
	});

	test('a service that refuses them gets an error that says what was sent for them and what to set instead', async () => {
		const listId = await createList(sb, { listName: 'levels refused', listType: 'static' });
		sb.faults.push({
			pathPrefix: `/v1/lists/${listId}/automations`,
			method: 'PUT',
			count: 1,
			status: 400,
			body: {
				error: 'Invalid SetInterestLevel',
				message: 'SetInterestLevel must be an integer from 0 to 5',
				eventid: 'tst-lvl-001',
			},
		});
		const result = await run(sb, replace(listId, { isEnabled: false }));
		expect(result.error?.message).toContain(
			'Invalid SetInterestLevel: SetInterestLevel must be an integer from 0 to 5',
		);
		expect(result.error?.description).toContain(
			'fields not set went as SetInterestLevel null (stars left as they are; 0 would unset them), SetStatusLevel null (status left as it is; 0 would set status None), Triggers "" (fires on nothing)',
		);
		expect(result.error?.description).toContain(
			'give Then Set Interest Level, Then Set Status Level Name or ID and Fires On in this node',
		);
	});

	test('with every field given, a refusal says nothing of empty fields', async () => {
		const listId = await createList(sb, { listName: 'levels given', listType: 'static' });
		sb.faults.push({
			pathPrefix: `/v1/lists/${listId}/automations`,
			method: 'PUT',
			count: 1,
			status: 400,
			body: { error: 'Invalid automation', eventid: 'tst-lvl-002' },
		});
		const result = await run(
			sb,
			replace(listId, {
				isEnabled: false,
				Triggers: 'New Matches',
				SetInterestLevel: 0,
				SetStatusLevel: 2,
			}),
		);
		expect(result.error?.message).toContain('Invalid automation');
		expect(result.error?.description).not.toContain('fields not set');
	});
});
