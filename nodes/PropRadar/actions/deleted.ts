import type { IDataObject } from 'n8n-workflow';

import type { ApiEnvelope } from '../transport';

/**
 * What every delete returns: `deleted` first (n8n's UX guidelines), then the IDs and PropRadar's
 * `deleteCount`. A count of 0 is PropRadar saying it deleted nothing, so `deleted` is false then.
 */
export function deletedRecord(ids: IDataObject, response: ApiEnvelope): IDataObject {
	const deleteCount = response.deleteCount ?? 0;
	return { deleted: Number(deleteCount) > 0, ...ids, deleteCount };
}
