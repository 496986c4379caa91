import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { apiRequest, paths, type ApiContext, type AutomationRecord } from '../transport';
import type { NumberedId } from './ids';
import { EMPTY_AUTOMATION } from './vocabulary';

// Answers whose shape the documents do not show (docs/api.md, "Every guess"): unmistakable shapes only.

export const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

// The documented `results[0]` and the likely other places that would hold the record.
function candidates(body: unknown, wrapper: string): IDataObject[] {
	if (!isObject(body)) return [];
	const results = Array.isArray(body.results) ? body.results[0] : body.results;
	return [results, body[wrapper], body].filter(isObject);
}

function arrived(body: unknown): string {
	const text =
		JSON.stringify(body, (key, value: unknown) =>
			/secret|token|password/i.test(key) && value ? '(hidden)' : value,
		) ?? String(body);
	return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export function webhookIdOf(body: unknown): number | undefined {
	for (const record of candidates(body, 'webhook')) {
		const key = Object.keys(record).find((name) => name.toLowerCase() === 'webhookid');
		const id = Number(key === undefined ? undefined : record[key]);
		if (Number.isSafeInteger(id) && id > 0) return id;
	}
	return undefined;
}

// `then`: what became of the webhook, and what to delete.
export function unreadableWebhookId(
	node: INode,
	body: unknown,
	then: string,
	itemIndex?: number,
): NodeOperationError {
	return new NodeOperationError(node, "PropRadar's answer to the new webhook holds no WebhookID", {
		itemIndex,
		description: `The node assumes \`results[0].WebhookID\` (also read: \`WebhookID\` at the top level or in a \`webhook\` object). Arrived: ${arrived(body)}. ${then}`,
	});
}

const AUTOMATION_FIELDS = Object.keys(EMPTY_AUTOMATION);

// A record missing an automation field is refused: written back whole, it would clear what it left out.
export async function readAutomation(
	context: ApiContext,
	listId: NumberedId,
	itemIndex?: number,
): Promise<AutomationRecord> {
	const body = await apiRequest<unknown>(context, {
		method: 'GET',
		path: paths.automation(listId),
		envelope: false,
		itemIndex,
	});
	const found = candidates(body, 'automation');
	const whole = found.find((record) => AUTOMATION_FIELDS.every((field) => field in record));
	if (whole) return whole as AutomationRecord;
	const missing = AUTOMATION_FIELDS.filter((field) => !(found[0] && field in found[0]));
	throw new NodeOperationError(
		context.getNode(),
		`PropRadar's answer holds no whole automation for list ${listId}`,
		{
			itemIndex,
			description: `The node assumes \`results[0]\` with every automation field (also read: an \`automation\` object, or the fields at the top level). Missing: ${missing.join(', ')}. Arrived: ${arrived(body)}. Nothing was written.`,
		},
	);
}
