import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest, paths } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	return (
		(await apiRequest(this, { method: 'GET', path: paths.members(), itemIndex })).results ?? []
	);
}
