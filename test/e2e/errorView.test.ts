/**
 * A failed request as n8n 2.41.1 stores it (and its error view shows it): a workflow whose
 * PropRadar node asks for a list that does not exist fails with the service's 404, and the stored
 * execution's error holds the service's HTTP status and its error object, with the node's own
 * message and description beside them and no token anywhere.
 */
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { stopN8n } from '../support/realN8n';
import { call, TOKENS } from '../support/sandboxApi';
import { newestExecution, storedExecution } from '../support/storedExecution';
import { propRadarNode, runByHand } from '../support/workflows';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, RunningN8n } from '../../scripts/n8n-host';

jest.setTimeout(300_000);

const WORKFLOW_ID = 'PropRadarE2eErrView';
const MISSING_LIST = 999_999;

let sandbox: RunningSandbox;
let host: RunningN8n;
let client: N8nClient;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	const prepared = await n8n.prepare({
		sandboxUrl: sandbox.url,
		workflows: [
			runByHand(
				{ id: WORKFLOW_ID, name: 'e2e: a list that does not exist' },
				propRadarNode('get', 'Get list', [220, 0], {
					resource: 'list',
					operation: 'get',
					listId: { __rl: true, mode: 'id', value: String(MISSING_LIST) },
				}),
			),
		],
	});
	host = await n8n.start(prepared);
	client = await n8n.login(host);
});

afterAll(async () => {
	await stopN8n(host, sandbox);
});

test("the stored execution's error holds the service's status and error object", async () => {
	// What the service answers, asked directly.
	const direct = await call(sandbox.url, 'GET', `/v1/lists/${MISSING_LIST}`);
	expect(direct.status).toBe(404);
	const serviceError = { ...(direct.body as Record<string, unknown>) };
	delete serviceError.eventid;

	await expect(n8n.runWorkflow(client, WORKFLOW_ID)).rejects.toThrow(
		`List ${MISSING_LIST} does not exist or belongs to another account`,
	);
	const newest = await newestExecution(client, WORKFLOW_ID);
	const execution = await storedExecution(client, newest!.id);
	expect(execution.status).toBe('error');
	const error = execution.runData['Get list'][0].error as unknown as {
		message: string;
		description: string;
		httpCode: string;
		context: { data?: Record<string, unknown> };
		errorResponse: { response: { status: number; data: Record<string, unknown> } };
	};
	expect(error.message).toBe(`List ${MISSING_LIST} does not exist or belongs to another account`);
	expect(error.description).toContain(`PropRadar says: ${String(serviceError.error)}`);
	// The status and the error object, as n8n's error view reads them (its "Error code" and "Error data").
	expect(error.httpCode).toBe('404');
	expect(error.context.data).toMatchObject(serviceError);
	expect(error.context.data?.eventid).toEqual(expect.any(String));
	expect(error.errorResponse.response).toMatchObject({ status: 404, data: serviceError });
	expect(JSON.stringify(execution)).not.toContain(TOKENS.main);
});
