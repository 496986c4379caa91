import type {
	IDataObject,
	INode,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

/** A failed item's fields: the error's message, description and HTTP code. */
export function errorFields(error: NodeApiError | NodeOperationError): IDataObject {
	const fields: IDataObject = { error: error.message };
	if (error.description) fields.description = error.description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) fields.httpCode = httpCode;
	return fields;
}

// n8n itself moves error items to the Error output (`handleNodeErrorOutput`,
// packages/core/src/execution-engine/workflow-execute.ts): an item holding only `error` and
// `details`. It merges in the input item's json when the pairing is an object, which would bring
// another node's `_charge`; paired by the index alone (n8n-workflow's number form) it is moved as it
// is. test/engine/errorOutput.test.ts fails without it.
export function errorItem(node: INode, itemIndex: number, fields: IDataObject): INodeExecutionData {
	if (node.onError !== 'continueErrorOutput')
		return { json: fields, pairedItem: { item: itemIndex } };
	const { error, ...details } = fields;
	return {
		json: Object.keys(details).length > 0 ? { error, details } : { error },
		pairedItem: itemIndex,
	};
}
