export { fieldsPicker, toFieldsParam, unknownFieldNames, type FieldsChoice } from './picker';
export {
	outputFields,
	outputProperties,
	PROPERTY_GET_DEFAULT_FIELDS,
	propertyFieldsWithPropId,
	shapedRecord,
	type OutputChoice,
} from './output';
