export {
	ADD_AS_PRIMARY_CONTACT,
	listLocator,
	personKeyProperty,
	propIdProperty,
	returnAllProperties,
	sortProperty,
	staticListLocator,
	vocabularyOptions,
} from './fields';
export {
	checkedValue,
	entriesOf,
	propertyNamed,
	readChoice,
	readCollection,
	readFlag,
} from './checked';
export {
	idsFrom,
	readCriteriaParameters,
	readFields,
	readLimit,
	readListId,
	readListIds,
	readTriggerListId,
	readPositiveInteger,
	readRequiredString,
	readSort,
	readText,
} from './readers';
export { readPersonKey, readPropId, readPropIds } from './keys';
