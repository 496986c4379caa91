import { describeFailure, paths } from '../../nodes/PropRadar/transport';
import { subjectOf } from '../../nodes/PropRadar/transport/failures';

test('every path with an ID names what it is about', () => {
	expect(subjectOf(paths.importItem(12, 7))).toBe('import item 7 of list 12');
	expect(subjectOf(paths.automation(12))).toBe('list 12');
	expect(subjectOf(paths.propertyPersons('P1'))).toBe('property P1');
	expect(subjectOf(paths.personPhone('K1'))).toBe('person K1');
	expect(subjectOf(paths.webhook(5))).toBe('webhook 5');
	expect(subjectOf(paths.webhooks())).toBeUndefined();
	expect(subjectOf(paths.lists())).toBeUndefined();
});

test('a 404 without a subject keeps the general sentence; a subject that holds a secret is redacted', () => {
	expect(describeFailure(404, { error: 'Resource does not exist for given id' }).message).toBe(
		'The resource does not exist or belongs to another account',
	);
	expect(
		describeFailure(404, { error: 'x' }, undefined, {
			subject: 'property sandbox-token',
			secrets: ['sandbox-token'],
		}).message,
	).toBe('Property [redacted] does not exist or belongs to another account');
});

test("a 400 names only whole parameter names the service's words contain", () => {
	const failure = describeFailure(
		400,
		{ error: 'Invalid Bath', message: 'Bath must be a number' },
		undefined,
		{ parameters: ['Baths', 'Bath', 'Purchase'] },
	);
	expect(failure.description).toContain(
		'Check Bath: the value sent for it is what PropRadar refused.',
	);
	expect(
		describeFailure(400, { error: 'Beds and SqFt do not fit' }, undefined, {
			parameters: ['Beds', 'SqFt'],
		}).description,
	).toContain('Check Beds, SqFt: the value sent for them');
});
