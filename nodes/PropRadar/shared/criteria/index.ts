export { PTYPE_OPTIONS, type Criterion } from './catalog';
export { CriteriaError, isRelativeDate, validateCriteria } from './check';
export { buildCriteria, readCriteria } from './read';
export { CRITERIA_MODE, criteriaProperties } from './description';
