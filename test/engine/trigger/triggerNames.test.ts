import { useTriggerSandbox } from '../../support/triggerHarness';

// A bound against a hung run on a busy machine, not a speed assertion.
jest.setTimeout(60_000);

/**
 * The trigger looks up the Change Kinds it is given as its own names (issue 13, point 6): an
 * inherited key name such as "constructor" (from an imported workflow or an expression) is no
 * kind of change. It is refused at activation, naming it, rather than passed over, which would
 * leave a filter wider than the one asked for.
 */
const { sb, trigger } = useTriggerSandbox();

test.each(['constructor', 'toString', '__proto__'])(
	'Change Kind "%s" is no kind of change: refused at activation, naming it, before any request',
	async (name) => {
		const sent = sb.requests.length;
		await expect(
			trigger(5, {
				events: ['statusChanges'],
				options: { changeKinds: [name, 'listingStatus'] },
			}).hook('create'),
		).rejects.toThrow(`Change Kinds: "${name}" is no kind of change`);
		expect(sb.requests.length).toBe(sent);
	},
);
