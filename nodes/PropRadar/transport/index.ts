export * from './api';
export * from './errors';
export * from './paging';
export * from './request';
export * from './run';
