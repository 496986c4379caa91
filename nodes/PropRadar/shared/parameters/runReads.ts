// Kept so that its callers in money/ and actions/ build while they are rewritten: each item's
// parameters are n8n's to read (`getNodeParameter(name, itemIndex)`), so this only runs `read`.
export function onceForEveryItem<T>(
	_context: unknown,
	_key: string,
	_names: string[],
	_itemIndex: number,
	read: () => T,
): T {
	return read();
}
