import type { IExecuteFunctions } from 'n8n-workflow';

import { outputFields, outputProperties, type OutputChoice } from '../shared/fieldsets';
import { checkedValue, readChoice, readFlag } from '../shared/parameters';
import type { SimplifiedKind } from '../shared/vocabulary';

/**
 * The fields each record of the item keeps (undefined: all): Simplify on the node, Output on its
 * tool variant. Read before the item's requests, so that a bad value is refused before anything is
 * sent, and never after a purchase.
 */
export function readOutputFields(
	context: IExecuteFunctions,
	itemIndex: number,
	kind: SimplifiedKind,
	asTool: boolean,
): readonly string[] | undefined {
	if (!asTool)
		return readFlag(context, itemIndex, 'simple', 'Simplify')
			? outputFields(kind, 'simplified')
			: undefined;
	const [, output, fields] = outputProperties(kind, {}, false);
	const choice = readChoice<OutputChoice>(context, itemIndex, output);
	if (choice !== 'selected') return outputFields(kind, choice);
	const selected = checkedValue(
		context,
		itemIndex,
		fields,
		context.getNodeParameter(fields.name, itemIndex, []),
	) as string[];
	return outputFields(kind, choice, selected);
}
