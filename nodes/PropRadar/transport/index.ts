export { apiRequest } from './request';
export type { ApiRequest } from './request';
export { accessToken, getConnection, readCredentialAhead, CREDENTIAL_TYPE } from './credential';
export type { ApiContext, Connection } from './credential';
export { chargedNothing, markMayHaveCharged, mayHaveCharged, refusedByService } from './outcome';
export { collectPages, listCount, pageThrough } from './paging';
export { readLists } from './lists';
export type { PagedResult, PagingOptions } from './paging';
export { paths } from './paths';
export type { ApiPath, PersonRecordPathKind } from './paths';
export { encodeQuery, formatCents, readCents } from './query';
export {
	describeFailure,
	errorFields,
	errorItem,
	redact,
	retryDelay,
	toNodeError,
	withoutUserPart,
} from './errors';
export type * from './types';
export { writableAutomation } from './types';
