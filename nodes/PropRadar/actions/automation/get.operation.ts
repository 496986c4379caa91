import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readAutomation } from '../../shared/answers';
import { listLocator, readListId } from '../../shared/parameters';

const show = { resource: ['automation'], operation: ['get'] };

export const description: INodeProperties[] = [listLocator(show)];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject[]> {
	const listId = readListId(this, itemIndex);
	return [{ ListID: listId, ...(await readAutomation(this, listId, itemIndex)) }];
}
