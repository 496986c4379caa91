export * from './checked';
export * from './fields';
export * from './keys';
export * from './readers';
export * from './parameter';
