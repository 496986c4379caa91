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

// n8n moves to the Error output only an item holding nothing but `error`, `message` and `details`,
// and merges into it the json of the input item its pairing names as an object: another node's
// fields, `_charge` among them. Paired by the item's index alone (n8n-workflow's number form, which
// its paired-item lookups read as `{ item }`), it is moved as it is (docs/design.md, "On Error:
// Continue (using error output)").
export function errorItem(node: INode, itemIndex: number, fields: IDataObject): INodeExecutionData {
	if (node.onError !== 'continueErrorOutput')
		return { json: fields, pairedItem: { item: itemIndex } };
	const { error, ...details } = fields;
	return {
		json: Object.keys(details).length > 0 ? { error, details } : { error },
		pairedItem: itemIndex,
	};
}
