export { BUILDER_CRITERIA, DATE_PRESETS, PTYPE_CODES } from './catalog';
export type { Criterion, CriterionRange, CriterionScalar } from './catalog';
export { CriteriaError, isRelativeDate, validateCriteria } from './check';
export { buildCriteria, readCriteria } from './read';
export type { BuilderRow } from './read';
export { CRITERIA_MODE, criteriaProperties } from './description';
