export { apiRequest } from './request';
export type { ApiRequest } from './request';
export { accessToken, getConnection, readCredentialAhead, CREDENTIAL_TYPE } from './credential';
export type { ApiContext, Connection } from './credential';
export {
	chargedNothing,
	markMayHaveCharged,
	markNeverSent,
	mayHaveCharged,
	refusedByService,
	withCharge,
} from './outcome';
export type { Charge } from './outcome';
export { collectPages, listCount, pageThrough } from './paging';
export { readList, readLists } from './lists';
export type { PagedResult, PagingOptions } from './paging';
export { paths } from './paths';
export type { ApiPath, PersonRecordPathKind } from './paths';
export { encodeQuery } from './query';
export {
	describeFailure,
	noResultsArray,
	redact,
	retryDelay,
	toNodeError,
	withoutUserPart,
} from './errors';
export type * from './types';
export { writableAutomation } from './types';
