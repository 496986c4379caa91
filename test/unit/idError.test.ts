import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { idError } from '../../nodes/PropRadar/money';
import { failureOf } from '../../nodes/PropRadar/money/idBatches';

// The error of an item whose PropID came to no records carries what it was found from.
const node: INode = {
	id: '1',
	name: 'PropRadar',
	type: 'n8n-nodes-propradar.propRadar',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const context = { getNode: () => node } as unknown as IExecuteFunctions;

test('a PropID PropRadar does not have: a 404 carrying the PropID and the count', () => {
	const error = idError(
		context,
		{
			error: {
				message: 'Property P000001 does not exist or belongs to another account',
				httpCode: '404',
				errorResponse: { PropID: 'P000001', resultCount: 0 },
			},
		},
		3,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	expect(error.errorResponse).toEqual({ PropID: 'P000001', resultCount: 0 });
	expect((error as NodeApiError).httpCode).toBe('404');
	expect(error.context.itemIndex).toBe(3);
});

test("a failed answer's error keeps what the service answered; another stays an operation error", () => {
	const answered = { error: 'Service Unavailable', eventid: 'abc-def-ghi' };
	const failed = new NodeApiError(node, answered, {
		message: 'The PropRadar service failed',
		httpCode: '503',
	});
	const error = idError(context, { error: failureOf(failed) }, 0);
	expect(error.errorResponse).toEqual(answered);
	expect((error as NodeApiError).httpCode).toBe('503');
	const other = idError(
		context,
		{ error: failureOf(new NodeOperationError(node, 'Not bought')) },
		1,
	);
	expect(other).toBeInstanceOf(NodeOperationError);
	expect(other.message).toBe('Not bought');
});
