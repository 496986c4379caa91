import { automationFields } from '../../nodes/PropRadar/actions/automation/configure.operation';

/**
 * Automation > Configure looks up the field names it is given as the automation's own fields.
 * (Through n8n the names of a collection are cleaned to its options first; this checks the
 * node's own lookup, which is what anything else calling it relies on.)
 */
test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])('"%s" is not an automation field', (name) => {
	expect(automationFields(JSON.parse(`{"${name}": "x"}`), 1)).toEqual({ fields: {}, problem: `${name} is not an automation field` });
});

test('the automation\'s own fields pass', () => {
	expect(automationFields({ isEnabled: true, Triggers: 'New Matches', SetInterestLevel: 3 }, 1)).toEqual({
		fields: { isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 3 },
	});
});
