import { automationFields } from '../../nodes/PropRadar/actions/automation/fields';

/**
 * Automation > Configure looks up the field names it is given as the automation's own fields.
 * (Through n8n the names of a collection are cleaned to its options first; this checks the
 * node's own lookup, which is what anything else calling it relies on.)
 */
test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
	'"%s" is not an automation field',
	(name) => {
		expect(automationFields(JSON.parse(`{"${name}": "x"}`), 1)).toEqual({
			fields: {},
			problem: `${name} is not an automation field`,
		});
	},
);

test("the automation's own fields pass", () => {
	expect(
		automationFields({ isEnabled: true, Triggers: 'New Matches', SetInterestLevel: 3 }, 1),
	).toEqual({
		fields: { isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 3 },
	});
});

test('list and webhook ID lists are exact IDs: a number past 2^53 (already rounded) or a non-ID is refused, digits in text are kept', () => {
	expect(automationFields({ AddToLists: [Number('9007199254740993')] }, 1).problem).toContain(
		'AddToLists: "9007199254740992" is beyond 9007199254740991',
	);
	expect(automationFields({ ExportToWebhookIDs: '12,abc' }, 1).problem).toContain(
		'ExportToWebhookIDs: "abc" is not a webhook ID',
	);
	expect(automationFields({ RemoveFromLists: '0' }, 1).problem).toContain('is not a list ID');
	expect(automationFields({ AddToLists: ['9007199254740993'] }, 1)).toEqual({
		fields: { AddToLists: '9007199254740993' },
	});
	expect(automationFields({ DailyEmailMemberIDs: 'M101,M103' }, 1)).toEqual({
		fields: { DailyEmailMemberIDs: 'M101,M103' },
	});
});
