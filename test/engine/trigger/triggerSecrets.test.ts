/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * What the trigger keeps at rest: n8n stores a workflow's static data unencrypted in its database
 * and exports it with the workflow, so nothing kept there may sign a delivery. The secret is
 * derived from the credential's access token when it is needed; a rotated token therefore
 * changes it, and the trigger says how to register again.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import type { Registration } from '../../../nodes/PropRadar/trigger/registration/settle';
import { everyValue } from '../../support/everyValue';
import { TOKENS } from '../../support/harness';
import { api, control } from '../../support/helpers';
import { postDelivery, TriggerWorkflow, useTriggerSandbox } from '../../support/triggerHarness';

// A bound against a hung run on a busy machine, not a speed assertion.
jest.setTimeout(30_000);

const { sb, receiver, trigger } = useTriggerSandbox();

/** A monitored static list of `token`'s account. */
async function monitoredList(name: string, token: string = TOKENS.main): Promise<number> {
	const response = await api<{ results: Array<{ ListID: number }> }>(
		sb,
		'POST',
		'/v1/lists',
		{ ListName: name, ListType: 'static', isMonitored: 1 },
		token,
	);
	return response.body.results[0].ListID;
}

/** The webhooks of the trigger's URL as the service holds them, secrets included. */
async function serviceHooks(
	wf: TriggerWorkflow,
	token: string = TOKENS.main,
): Promise<Array<{ WebhookID: number; Secret: string }>> {
	const response = await api<{
		results: Array<{ WebhookID: number; HookUrl: string; Secret: string }>;
	}>(sb, 'GET', '/v1/integrations/webhooks?Fields=WebhookID,HookUrl,Secret', undefined, token);
	return response.body.results.filter((hook) => hook.HookUrl === wf.url());
}

/** The secret the service signs the trigger's deliveries with (the one it was given at registration). */
async function serviceSecret(wf: TriggerWorkflow, token: string = TOKENS.main): Promise<string> {
	const hooks = await serviceHooks(wf, token);
	expect(hooks).toHaveLength(1);
	return hooks[0].Secret;
}

const newMatch = { TriggerType: 'New Match', PropID: 'P000101', ListID: 1 };

test("the static data holds nothing a delivery can be signed with: a delivery signed with each of its values is refused, one with the service's secret accepted", async () => {
	const listId = await monitoredList('Secrets at rest');
	const wf = trigger(listId);
	await wf.activate();
	try {
		const secret = await serviceSecret(wf);
		expect(secret).toMatch(/^[0-9a-f]{64}$/);
		const stored = JSON.parse(JSON.stringify(wf.workflow.staticData)) as IDataObject;
		expect(JSON.stringify(stored)).not.toContain(secret);
		const values = [...new Set(everyValue(stored))];
		expect(values).toEqual(expect.arrayContaining([wf.url(), String(listId)]));
		for (const value of values) {
			expect({
				value,
				status: (await postDelivery(wf.url(), newMatch, `Bearer ${value}`)).status,
			}).toEqual({ value, status: 401 });
		}
		expect(receiver.deliveriesOf(wf.id).every((delivery) => delivery.items === undefined)).toBe(
			true,
		);
		expect((await postDelivery(wf.url(), newMatch, `Bearer ${secret}`)).status).toBe(200);
		expect(receiver.deliveriesOf(wf.id).at(-1)!.items).toEqual([newMatch]);
	} finally {
		await wf.deactivate();
	}
});

test('a registration kept by an earlier version (its secret in the static data) opens nothing, and the next activation replaces it', async () => {
	const listId = await monitoredList('Secrets at rest, earlier version');
	const wf = trigger(listId);
	await wf.activate();
	try {
		// What an earlier version kept: the secret itself, which the service also holds.
		const secret = await serviceSecret(wf);
		const registrations = wf.staticData.registrations as Record<
			string,
			Partial<Registration> & { secret?: string }
		>;
		for (const registration of Object.values(registrations)) {
			delete registration.secretSalt;
			registration.secret = secret;
		}
		expect((await postDelivery(wf.url(), newMatch, `Bearer ${secret}`)).status).toBe(401);
		expect(await wf.hook('checkExists')).toBe(false);

		await wf.activate();
		const renewed = await serviceSecret(wf);
		expect(renewed).not.toBe(secret);
		expect(JSON.stringify(wf.staticData)).not.toContain(renewed);
		expect(JSON.stringify(wf.staticData)).not.toContain(secret);
		expect((await postDelivery(wf.url(), newMatch, `Bearer ${renewed}`)).status).toBe(200);
	} finally {
		await wf.deactivate();
	}
});

test('deliveries verify in another process (another node type instance) holding the same static data', async () => {
	const listId = await monitoredList('Secrets at rest, another process');
	const wf = trigger(listId);
	await wf.activate();
	try {
		const secret = await serviceSecret(wf);
		let nodeType:
			import('../../../nodes/PropRadar/PropRadarTrigger.node').PropRadarTrigger | undefined;
		jest.isolateModules(() => {
			const { PropRadarTrigger } = jest.requireActual<
				typeof import('../../../nodes/PropRadar/PropRadarTrigger.node')
			>('../../../nodes/PropRadar/PropRadarTrigger.node');
			nodeType = new PropRadarTrigger();
		});
		receiver.listen(wf.path(), { trigger: wf, test: false, nodeType });
		expect((await postDelivery(wf.url(), newMatch, `Bearer ${secret}`)).status).toBe(200);
		expect((await postDelivery(wf.url(), newMatch, 'Bearer 0123456789abcdef')).status).toBe(401);
	} finally {
		await wf.deactivate();
	}
});

describe('a rotated access token', () => {
	test('deliveries signed with the old secret are refused, with a warning saying how to register again; checkExists no longer finds the registration; activating again registers with the new token and deliveries go on', async () => {
		const listId = await monitoredList('Token rotation', TOKENS.second);
		const wf = trigger(listId, { credentials: { accessToken: TOKENS.second } });
		await wf.activate();
		try {
			const oldSecret = await serviceSecret(wf, TOKENS.second);
			expect((await postDelivery(wf.url(), newMatch, `Bearer ${oldSecret}`)).status).toBe(200);

			// The account's owner rotates the token in PropRadar and puts the new one in the credential.
			const { body: rotated } = await control<{ token: string }>(
				sb,
				'POST',
				'/_sandbox/tokens/rotate',
				{ token: TOKENS.second },
			);
			wf.useCredentials({ accessToken: rotated.token });
			expect(await serviceSecret(wf, rotated.token)).toBe(oldSecret);

			const warned = jest.spyOn(Container.get(Logger), 'warn');
			let refused: { status: number; text: string };
			let warnings: string[];
			try {
				refused = await postDelivery(
					wf.url(),
					{ ...newMatch, PropID: 'P000102' },
					`Bearer ${oldSecret}`,
				);
			} finally {
				warnings = warned.mock.calls.map((call) => JSON.stringify(call));
				warned.mockRestore();
			}
			expect(refused.status).toBe(401);
			expect(receiver.deliveriesOf(wf.id).at(-1)!.items).toBeUndefined();
			expect(warnings).toEqual([
				expect.stringContaining(
					"PropRadar Trigger refused a delivery whose Authorization does not carry this trigger's secret",
				),
			]);
			expect(warnings[0]).toContain('publish the workflow again');
			expect(warnings[0]).toContain(wf.id);
			for (const secret of [oldSecret, rotated.token, TOKENS.second])
				expect(warnings[0]).not.toContain(secret);

			// Publishing the workflow again (and n8n's start) runs checkExists, then create.
			expect(await wf.hook('checkExists')).toBe(false);
			await wf.activate();
			const hooks = await serviceHooks(wf, rotated.token);
			expect(hooks).toHaveLength(1);
			expect(hooks[0].Secret).not.toBe(oldSecret);
			expect(hooks[0].WebhookID).toBe(wf.registration().webhookId);
			expect(await wf.hook('checkExists')).toBe(true);

			expect(
				(await postDelivery(wf.url(), { ...newMatch, PropID: 'P000103' }, `Bearer ${oldSecret}`))
					.status,
			).toBe(401);
			const before = receiver.deliveriesOf(wf.id).length;
			await control(sb, 'POST', '/_sandbox/simulate/new-match', { ListID: listId });
			await control(sb, 'GET', '/_sandbox/deliveries?wait=1');
			const delivered = receiver.deliveriesOf(wf.id).slice(before);
			expect(delivered.map((delivery) => delivery.status)).toEqual([200]);
			expect(delivered[0].items).toHaveLength(1);
		} finally {
			await wf.deactivate();
		}
	});
});

test('activation with a Base URL holding a user part is refused naming the field, with nothing registered and no token shown', async () => {
	const listId = await monitoredList('Trigger, Base URL with a user part');
	const requests = sb.requests.length;
	const wf = trigger(listId, {
		credentials: { baseUrl: sb.url.replace('://', '://u:url-token-4d2b8e@') },
	});
	let error: (Error & { description?: string }) | undefined;
	await wf.activate().catch((caught: Error) => (error = caught));
	expect(error?.message).toBe(
		'The Base URL of the PropRadar credential holds a user name or password',
	);
	expect(error?.description).toContain('Base URL: ');
	expect(JSON.stringify({ ...error, message: error?.message, stack: error?.stack })).not.toContain(
		'url-token-4d2b8e',
	);
	expect(sb.requests.length).toBe(requests);
	expect(wf.registration()).toEqual({});
});
