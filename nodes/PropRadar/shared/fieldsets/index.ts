export * from './output';
export * from './picker';
