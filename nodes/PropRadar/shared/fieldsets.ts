import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The one fieldset catalogue of the package (docs/design.md).
 *
 * Every `Fields` parameter of the API takes fieldset names and single field names, comma-separated,
 * and a leading `-` suppresses a name. The node's pickers and the sandbox's field resolution are
 * both generated from the catalogues below, so a fieldset is written down exactly once.
 *
 * `fieldsPicker` generates an operation's `Fields` parameter from a scope of the catalogue, and
 * `toFieldsParam` turns the user's choice into the query value (`Overview,PropID,-Owner`).
 *
 * Sources: property fieldsets from the property document; person fieldsets and the allowed person fields from
 * the lists document; list-item fieldset names from the lists document. Where the API documents name a fieldset without its
 * fields (marked "not shown" there), the contents below are the sandbox's documented choice.
 */

/** Property fieldsets of the property document, in the order the document lists them. */
export const PROPERTY_FIELDSETS = {
	Grid: [
		'PType', 'Address', 'City', 'SqFt', 'Beds', 'Baths', 'AVM', 'AvailableEquity', 'Owner',
		'PhoneAvailability', 'EmailAvailability', 'isSameMailingOrExempt', 'isListedForSale',
		'DistressScore',
	],
	GridImport: [
		'PType', 'State', 'County', 'Address', 'City', 'ZipFive', 'APN', 'Owner',
	],
	GridOptional: [
		'PropID', 'State', 'County', 'ZipFive', 'Subdivision', 'APN', 'LotSize', 'LotSizeAcres',
		'YearBuilt', 'Units', 'Stories', 'Pool', 'AssessedValue', 'AnnualTaxes', 'EstimatedTaxRate',
		'ValuePerSF', 'EquityPercent', 'NumberLoans', 'TotalLoanBalance', 'EstimatedRent',
		'LastTransferRecDate', 'LastTransferType', 'LastTransferValue', 'LastTransferSeller',
		'LastTransferDownPaymentPercent', 'PriorTransferChangeInPrice',
		'PriorTransferChangeInPricePercent', 'PriorTransferMonthsSince', 'FirstLenderOriginal',
		'FirstPurpose', 'FirstDate', 'FirstAmount', 'FirstRate', 'ForeclosureStage',
		'ForeclosureRecDate', 'SaleDate', 'OriginalSaleDate', 'PreviousSaleDate', 'SaleTime',
		'SalePlace', 'PostReason', 'SaleAmount', 'OpeningBid', 'WinningBid', 'DefaultAmount',
		'DefaultAsOf', 'LisPendensType', 'Trustee', 'TrusteePhone', 'TrusteeSaleNum', 'Attorney',
		'CaseNumber', 'DOTPosition', 'DOTRecDate', 'DOTAmount', 'ForeclosingLender', 'ListingPrice',
		'DaysOnMarket', 'inForeclosure', 'isNotSameMailingOrExempt', 'isSiteVacant', 'isMailVacant',
		'isFreeAndClear', 'isHighEquity', 'isCashBuyer', 'isUnderwater', 'isDeceasedProperty',
		'isPreforeclosure', 'isAuction', 'isBankOwned', 'inTaxDelinquency', 'inDivorce',
		'inBankruptcyProperty', 'PropertyHasOpenPersonLiens', 'PropertyHasOpenLiens',
		'hasRecentEviction', 'inProbateProperty',
	],
	Card: [
		'PropID', 'Address', 'City', 'State', 'ZipFive', 'PType', 'AdvancedPropertyType', 'Beds',
		'Baths', 'SqFt', 'YearBuilt', 'Owner', 'Owner2', 'LotSize', 'isSameMailingOrExempt',
		'isNotSameMailingOrExempt', 'isHighEquity', 'isUnderwater', 'isFreeAndClear', 'isRecentFlip',
		'AVM', 'AvailableEquity', 'isRecentSale', 'AssessedValue', 'TotalLoanBalance', 'isCashBuyer',
		'isDeceasedProperty', 'inTaxDelinquency', 'inForeclosure', 'LastTransferValue',
		'isListedForSale', 'Persons', 'inDivorce', 'inBankruptcyProperty',
		'PropertyHasOpenPersonLiens', 'PropertyHasOpenLiens', 'isPreforeclosure', 'isAuction',
		'isBankOwned', 'DistressScore', 'hasRecentEviction', 'inProbateProperty', 'isExpiredListing',
	],
	Map: [
		'PropID', 'PType', 'Latitude', 'Longitude',
	],
	Mobile: [
		'PropID', 'Address', 'City', 'PType', 'Beds', 'Baths', 'SqFt', 'YearBuilt',
		'isSameMailingOrExempt', 'isSameMailing', 'isNotSameMailingOrExempt', 'isHighEquity',
		'isUnderwater', 'isFreeAndClear', 'isRecentFlip', 'AVM', 'AvailableEquity', 'isRecentSale',
		'AssessedValue', 'TotalLoanBalance', 'isCashBuyer', 'isDeceasedProperty', 'inTaxDelinquency',
		'inForeclosure', 'isListedForSale', 'inDivorce', 'inBankruptcyProperty',
		'PropertyHasOpenPersonLiens', 'PropertyHasOpenLiens', 'isPreforeclosure', 'isAuction',
		'isBankOwned', 'DistressScore', 'hasRecentEviction', 'inProbateProperty', 'isExpiredListing',
	],
	Overview: [
		'PropID', 'PType', 'AdvancedPropertyType', 'Address', 'City', 'State', 'ZipFive', 'Latitude',
		'Longitude', 'inTaxDelinquency', 'StatusLevel', 'InterestLevel', 'YearBuilt', 'Beds', 'Baths',
		'SqFt', 'LotSize', 'LotSizeAcres', 'isSiteVacant', 'isListedForSale', 'inForeclosure',
		'isSameMailingOrExempt', 'isSameMailing', 'isNotSameMailingOrExempt', 'isHighEquity',
		'isUnderwater', 'isFreeAndClear', 'isRecentSale', 'isRecentFlip', 'isCashBuyer',
		'isDeceasedProperty', 'AVM', 'AssessedValue', 'AvailableEquity', 'TotalLoanBalance',
		'LastTransferValue', 'LastTransferRecDate', 'inDivorce', 'inBankruptcyProperty',
		'PropertyHasOpenPersonLiens', 'PropertyHasOpenLiens', 'isPreforeclosure', 'isAuction',
		'isBankOwned', 'DistressScore', 'hasRecentEviction', 'inProbateProperty', 'isExpiredListing',
	],
	PropertyTab: [
		'Address', 'City', 'State', 'ZipFive', 'County', 'APN', 'PropID', 'Latitude', 'Longitude',
		'Subdivision', 'SiteCongressionalDistrict', 'SchoolDistrict', 'CensusTract', 'CensusBlock',
		'CarrierRoute', 'TaxRateArea', 'Range', 'Township', 'Section', 'LegalBookPage', 'LegalBlock',
		'LegalLots', 'FullLegal', 'DirectionsURL', 'AssessorURL', 'AdvancedPropertyType', 'LotSize',
		'LotSizeAcres', 'LotFrontFootage', 'LotDepthFootage', 'isSiteVacant', 'Zoning',
		'UtilitiesType', 'ViewType', 'LocationInfluence', 'FloodZone', 'FloodZoneRisk', 'FloodMapDate',
		'FloodMapNumber', 'YearBuilt', 'SqFt', 'Beds', 'Baths', 'Units', 'Stories', 'Rooms',
		'GarageSize', 'Pool', 'Fireplace', 'AirCond', 'Heating', 'BasementType', 'BasementFinishType',
		'BasementSqFt', 'GarageSqFt', 'ImprovementCondition', 'BuildingQuality', 'ConstructionType',
		'FoundationType', 'FrameType', 'ExteriorWallType', 'FloorType', 'RoofType', 'AssessedValue',
		'LandValue', 'ImpValue', 'AnnualTaxes', 'EstimatedTaxRate', 'AssessedYear', 'TaxYear',
		'FirstInstallmentAmount', 'FirstInstallmentPaid', 'SecondInstallmentAmount',
		'SecondInstallmentPaid', 'ThirdInstallmentAmount', 'ThirdInstallmentPaid',
		'FourthInstallmentAmount', 'FourthInstallmentPaid', 'DelinquentYear', 'DelinquentAmount',
		'NumberDelinquentInstallments', 'Taxpayer', 'isMailVacant', 'MailCongressionalDistrict',
		'OwnerExemption', 'TaxSearchURL', 'DisclaimerDetails', '_links',
	],
	TransactionsTab: [
		'Transactions', 'ForeclosureSelector', 'County', 'RecorderSearchURL', 'DisclaimerDetails',
		'NoticeKey', '_links', 'EvictionFilings',
	],
	ListingsTab: [
		'Address', 'City', 'State', 'ZipFive', 'OwnerFirstName', 'OwnerLastName', 'OwnerAddress',
		'OwnerCity', 'OwnerState', 'OwnerZipFive', 'DisclaimerDetails', '_links',
	],
	ValueTab: [
		'AVM', 'AssessedValue', 'TotalLoanBalance', 'AvailableEquity', 'LastTransferRecDate',
		'LastTransferValue', 'LastTransferDownPayment', 'LastTransferType', 'MyValue',
		'MyValuePerSqFt', 'MyValueDate', 'AVMPerSqFt', 'AVMAsOf', 'ListingPrice',
		'ListingPricePerSqFt', 'ListingDate', 'RentBreakEven', 'RentBreakEvenPerSqFt',
		'RentBreakEvenDate', 'CompsSales', 'CompsListingsForSale', 'MyRent', 'MyRentPerSqFt',
		'MyRentDate', 'HUDRent', 'HUDRentPerSqFt', 'HUDRentDate', 'ValueBreakEven',
		'ValueBreakEvenPerSqFt', 'ValueBreakEvenDate', 'DisclaimerDetails', '_links',
	],
	MyInfoTab: [
		'DisclaimerDetails', '_links',
	],
	LimitedREI: [
		'Address', 'AdvancedPropertyType', 'AirCond', 'AssessedValue', 'AssessedYear',
		'AvailableEquity', 'AVM', 'AVMAsOf', 'AVMPerSqFt', 'AVMReliability', 'BasementFinishType',
		'BasementSqFt', 'BasementType', 'Baths', 'Beds', 'City', 'ConstructionType', 'DaysOnMarket',
		'DefaultAmount', 'DefaultAsOf', 'DelinquentAmount', 'DelinquentYear', 'EquityPercent',
		'ExteriorWallType', 'FirstAmount', 'FirstAmountLTV', 'FirstConcurrent', 'FirstDate',
		'FirstLenderOriginal', 'FirstLoanType', 'FirstPurpose', 'FirstRate', 'FirstRateType',
		'FirstTermInYears', 'FloodZone', 'FloodZoneRisk', 'FloorType', 'ForeclosureRecDate',
		'ForeclosureStage', 'FoundationType', 'FrameType', 'GarageSize', 'Heating', 'HVAC',
		'ImprovementCondition', 'inBankruptcyProperty', 'inDivorce', 'inForeclosure',
		'inTaxDelinquency', 'isAuction', 'isBankOwned', 'isCashBuyer', 'isDeceasedProperty',
		'isFreeAndClear', 'isHighEquity', 'isListedForSale', 'isMailVacant',
		'isNotSameMailingOrExempt', 'isPreforeclosure', 'isRecentFlip', 'isRecentSale',
		'isSameMailing', 'isSameMailingOrExempt', 'isSiteVacant', 'isUnderwater',
		'LastTransferDownPayment', 'LastTransferDownPaymentPercent', 'LastTransferRecDate',
		'LastTransferSeller', 'LastTransferType', 'LastTransferValue', 'LisPendensType', 'ListingDate',
		'ListingPrice', 'ListingStatus', 'ListingType', 'LotSize', 'LotSizeAcres', 'NoticeKey',
		'NumberDelinquentInstallments', 'NumberLoans', 'OpeningBid', 'OriginalSaleDate', 'Owner',
		'OwnerAddress', 'OwnerCity', 'OwnerFirstName', 'OwnerLastName', 'OwnershipType', 'OwnerState',
		'OwnerZipFive', 'Persons', 'Pool', 'PostReason', 'PreviousSaleDate', 'PropertyHasOpenLiens',
		'PropertyHasOpenPersonLiens', 'PropID', 'RoofType', 'Rooms', 'SaleAmount', 'SaleDate',
		'SalePlace', 'SqFt', 'State', 'Stories', 'Subdivision', 'TaxSearchURL', 'Trustee',
		'TrusteeAddress', 'TrusteeCityStZip', 'TrusteePhone', 'TrusteeSaleNum', 'Units',
		'UtilitiesType', 'ViewType', 'WinningBid', 'YearBuilt', 'ZipFive', 'Zoning',
	],
	All: [
		'PropID', 'PType', 'Address', 'City', 'State', 'ZipFive', 'County', 'APN', 'Latitude',
		'Longitude', 'Subdivision', 'CensusTract', 'CensusBlock', 'CarrierRoute', 'TaxRateArea',
		'TaxSearchURL', 'AssessorURL', 'RecorderSearchURL', 'Range', 'Township', 'Section',
		'LegalBookPage', 'LegalBlock', 'LegalLots', 'LegalTractNumber', 'FullLegal', 'DirectionsURL',
		'SiteCongressionalDistrict', 'isSiteVacant', 'SchoolDistrict', 'MailCongressionalDistrict',
		'isMailVacant', 'AdvancedPropertyType', 'LotSize', 'LotSizeAcres', 'Zoning', 'YearBuilt',
		'SqFt', 'Beds', 'Baths', 'Units', 'Stories', 'Rooms', 'GarageSize', 'Pool', 'Fireplace',
		'AirCond', 'Heating', 'BasementType', 'BasementFinishType', 'BasementSqFt',
		'ImprovementCondition', 'BuildingQuality', 'ConstructionType', 'FoundationType', 'FrameType',
		'ExteriorWallType', 'FloorType', 'RoofType', 'UtilitiesType', 'ViewType', 'LocationInfluence',
		'GarageSqFt', 'LotFrontFootage', 'LotDepthFootage', 'AssessedValue', 'LandValue', 'ImpValue',
		'AnnualTaxes', 'EstimatedTaxRate', 'AssessedYear', 'OwnerExemption', 'Transactions',
		'CountyRecorderLink', 'LastTransferType', 'CLTV', 'EquityPercent', 'ForeclosureSelector',
		'NoticeKey', 'ForeclosureStage', 'TrusteeSaleNum', 'SaleDate', 'SaleTime', 'SalePlace',
		'PostReason', 'PreviousSaleDate', 'OriginalSaleDate', 'SaleAmount', 'DefaultAmount',
		'DefaultAsOf', 'OpeningBid', 'WinningBid', 'ForeclosureRecDate', 'ForeclosureDocNumber',
		'TrusteeAddress', 'TrusteeCityStZip', 'Trustee', 'TrusteePhone', 'ForeclosureBookNumber',
		'ForeclosurePageNumber', 'Attorney', 'AttorneyPhone', 'CaseNumber', 'LisPendensType',
		'DOTRecDate', 'DOTDocNum', 'DOTAmount', 'DOTPosition', 'ForeclosingLender', 'LenderAddress',
		'LenderCityStZip', 'Taxpayer', 'DisclaimerDetails', 'PhoneAvailability', 'EmailAvailability',
		'isPreforeclosure', 'isAuction', 'isBankOwned', '_links', 'AVM', 'TotalLoanBalance',
		'AvailableEquity', 'LastTransferRecDate', 'LastTransferValue', 'LastTransferDownPayment',
		'MyValue', 'MyValuePerSqFt', 'MyValueDate', 'AVMPerSqFt', 'AVMAsOf', 'ListingPrice',
		'ListingPricePerSqFt', 'ListingDate', 'DaysOnMarket', 'RentBreakEven', 'RentBreakEvenPerSqFt',
		'RentBreakEvenDate', 'MyRent', 'MyRentPerSqFt', 'MyRentDate', 'HUDRent', 'HUDRentPerSqFt',
		'HUDRentDate', 'ValueBreakEven', 'ValueBreakEvenPerSqFt', 'ValueBreakEvenDate', 'CompsSales',
		'CompsListingsForSale', 'isListedForSale', 'TaxYear', 'FirstInstallmentAmount',
		'FirstInstallmentPaid', 'SecondInstallmentAmount', 'SecondInstallmentPaid',
		'ThirdInstallmentAmount', 'ThirdInstallmentPaid', 'FourthInstallmentAmount',
		'FourthInstallmentPaid', 'DelinquentYear', 'DelinquentAmount', 'NumberDelinquentInstallments',
		'FloodZone', 'FloodZoneRisk', 'FloodMapDate', 'FloodMapNumber',
	],
} as const satisfies Record<string, readonly string[]>;

export type PropertyFieldsetName = keyof typeof PROPERTY_FIELDSETS;

function unique(lists: ReadonlyArray<readonly string[]>): string[] {
	return [...new Set(lists.flat())];
}

/** Every property field named by any fieldset of the property document, plus `Persons` (the property document: the owners). */
export const PROPERTY_FIELDS: readonly string[] = unique([...Object.values(PROPERTY_FIELDSETS), ['Persons']]);

const FORECLOSURE_FIELDS = PROPERTY_FIELDSETS.GridOptional.filter(
	(field) =>
		/^(Foreclos|Sale|OriginalSale|PreviousSale|PostReason|OpeningBid|WinningBid|Default|LisPendens|Trustee|Attorney|CaseNumber|DOT)/.test(
			field,
		) || ['inForeclosure', 'isPreforeclosure', 'isAuction', 'isBankOwned'].includes(field),
);

/**
 * List-item fieldsets (the lists document, "View list items"). Each lists PropID. GridForeclosureOptional and
 * Details are named by the lists document without their fields: here they are PropID with the foreclosure
 * columns of GridOptional, and PropID with the building details of PropertyTab.
 */
export const LIST_ITEM_FIELDSETS = {
	GridForeclosureOptional: ['PropID', ...FORECLOSURE_FIELDS],
	GridOptional: PROPERTY_FIELDSETS.GridOptional,
	Card: PROPERTY_FIELDSETS.Card,
	Map: PROPERTY_FIELDSETS.Map,
	Mobile: PROPERTY_FIELDSETS.Mobile,
	Overview: PROPERTY_FIELDSETS.Overview,
	Details: ['PropID', ...PROPERTY_FIELDSETS.PropertyTab.filter((field) =>
		['YearBuilt', 'SqFt', 'Beds', 'Baths', 'Units', 'Stories', 'Rooms', 'GarageSize', 'Pool', 'Fireplace', 'AirCond', 'Heating', 'LotSize', 'LotSizeAcres', 'Zoning'].includes(field),
	)],
	PropertyTab: PROPERTY_FIELDSETS.PropertyTab,
	LimitedREI: PROPERTY_FIELDSETS.LimitedREI,
} as const satisfies Record<string, readonly string[]>;

/** Person fieldsets of the lists document. */
export const PERSON_FIELDSETS = {
	default: [
		'isPrimaryContact', 'OwnershipRole', 'Status', 'FirstName', 'MiddleName', 'LastName', 'Suffix',
		'EntityName', 'Age', 'Gender', 'Phone', 'Email', 'SocialAccounts', 'MailAddress',
		'PrimaryResidence', 'OtherProperties', 'Occupation', 'isDeceased',
	],
	overview: [
		'isPrimaryContact', 'OwnershipRole', 'FirstName', 'MiddleName', 'LastName', 'Suffix',
		'EntityName', 'Age', 'Gender', 'Occupation', 'Phone', 'Email', 'SocialAccounts', 'isDeceased',
	],
} as const satisfies Record<string, readonly string[]>;

/** The single person fields the lists document allows in `Fields` (each may also be suppressed with `-`). */
export const PERSON_FIELDS: readonly string[] = [
	'PropID', 'PersonKey', 'isPrimaryContact', 'OwnershipRole', 'PrimaryResidence',
	'OtherProperties', 'Status', 'PersonType', 'FirstName', 'MiddleName', 'LastName', 'Suffix',
	'EntityName', 'Age', 'Gender', 'MailAddress', 'Occupation', 'Phone', 'Email',
];

/**
 * List record fields (the lists document "List" plus the read-only fields of docs/api.md "Lists"). The API documents
 * name no list fieldsets, so list reads take single fields only.
 */
export const LIST_FIELDS: readonly string[] = [
	'ListID', 'ListName', 'ListType', 'isMonitored', 'ImportSource', 'ImportMatchThreshold',
	'ImportType', 'ImportContactOptions', 'GroupName', 'DisplayOrder', 'TotalCount', 'LastViewed',
	'NewSinceLastViewedCount', 'MonitoringStartedOn', 'TotalImportItems', 'TotalProcessedImportItems',
];

/** Import item fields: the posted record fields of the lists document and the match fields of docs/api.md. */
export const IMPORT_RECORD_FIELDS: readonly string[] = [
	'FirstName', 'LastName', 'FullName', 'Email', 'EmailStatus', 'Phone', 'PhoneType', 'PhoneStatus',
	'Address', 'City', 'State', 'ZipFive', 'County', 'APN',
];
export const IMPORT_ITEM_FIELDS: readonly string[] = [
	'ListID', 'ListImportItemID', ...IMPORT_RECORD_FIELDS, 'PropertyStatus', 'PersonStatus', 'MatchScore',
	'PropID', 'PersonKey',
];

/** Webhook record fields (docs/api.md "Webhooks"). */
export const WEBHOOK_FIELDS: readonly string[] = ['WebhookID', 'HookUrl', 'WebhookName', 'ClientName', 'Secret'];

/**
 * Person record fieldsets (`GET /v1/persons/{PersonKey}/<kind>`). the lists document gives the bankruptcy
 * `Table` fieldset; the other kinds' fields are the sandbox's documented choice, each with a
 * `Table` fieldset of the same shape.
 */
export const PERSON_RECORD_FIELDSETS = {
	bankruptcies: {
		Table: ['BankruptcyID', 'BankruptcyCaseNumber', 'BankruptcyRecordingDate', 'BankruptcyChapter', 'BankruptcyStatus'],
	},
	divorces: {
		Table: ['DivorceID', 'DivorceCaseNumber', 'DivorceFilingDate', 'DivorceCourt', 'DivorceStatus'],
	},
	liens: {
		Table: ['LienID', 'LienType', 'LienRecordingDate', 'LienAmount', 'LienHolder', 'LienStatus'],
	},
	probates: {
		Table: ['ProbateID', 'ProbateCaseNumber', 'ProbateFilingDate', 'ProbateCourt', 'ProbateStatus'],
	},
	relatives: {
		Table: ['RelativeKey', 'FirstName', 'LastName', 'Relationship', 'Age'],
	},
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type PersonRecordKind = keyof typeof PERSON_RECORD_FIELDSETS;
export const PERSON_RECORD_KINDS = Object.keys(PERSON_RECORD_FIELDSETS) as PersonRecordKind[];

/**
 * Transaction history fieldsets (the property document: `Fields` defaults to `Standard`). Custom field lists
 * are field IDs, at most 50 (`MAX_TRANSACTION_FIELD_IDS`).
 */
export const TRANSACTION_FIELDSETS = {
	Standard: [
		'TransactionID', 'RecordingDate', 'DocumentType', 'DocumentNumber', 'Amount', 'Buyer', 'Seller',
		'Lender', 'LoanAmount', 'LoanType',
	],
} as const satisfies Record<string, readonly string[]>;
export const MAX_TRANSACTION_FIELD_IDS = 50;

/** Every `Fields` scope of the API, with its fieldsets and its single fields. */
export interface FieldScope {
	fieldsets: Readonly<Record<string, readonly string[]>>;
	fields: readonly string[];
}

export const FIELD_SCOPES = {
	property: { fieldsets: PROPERTY_FIELDSETS, fields: PROPERTY_FIELDS },
	listItem: { fieldsets: LIST_ITEM_FIELDSETS, fields: PROPERTY_FIELDS },
	person: { fieldsets: PERSON_FIELDSETS, fields: PERSON_FIELDS },
	list: { fieldsets: {}, fields: LIST_FIELDS },
	importItem: { fieldsets: {}, fields: IMPORT_ITEM_FIELDS },
	webhook: { fieldsets: {}, fields: WEBHOOK_FIELDS },
	transaction: { fieldsets: TRANSACTION_FIELDSETS, fields: unique(Object.values(TRANSACTION_FIELDSETS)) },
	bankruptcies: { fieldsets: PERSON_RECORD_FIELDSETS.bankruptcies, fields: PERSON_RECORD_FIELDSETS.bankruptcies.Table },
	divorces: { fieldsets: PERSON_RECORD_FIELDSETS.divorces, fields: PERSON_RECORD_FIELDSETS.divorces.Table },
	liens: { fieldsets: PERSON_RECORD_FIELDSETS.liens, fields: PERSON_RECORD_FIELDSETS.liens.Table },
	probates: { fieldsets: PERSON_RECORD_FIELDSETS.probates, fields: PERSON_RECORD_FIELDSETS.probates.Table },
	relatives: { fieldsets: PERSON_RECORD_FIELDSETS.relatives, fields: PERSON_RECORD_FIELDSETS.relatives.Table },
} as const satisfies Record<string, FieldScope>;

export type FieldScopeName = keyof typeof FIELD_SCOPES;

/** The value of a `Fields` picker: fieldsets, single fields, and fields to suppress. */
export interface FieldsChoice {
	fieldsets?: string[] | string;
	include?: string[] | string;
	exclude?: string[] | string;
}

function sortedOptions(names: readonly string[], describe?: (name: string) => string): INodePropertyOptions[] {
	return [...names]
		.sort((a, b) => a.localeCompare(b))
		.map((name) => (describe ? { name, value: name, description: describe(name) } : { name, value: name }));
}

function preview(fields: readonly string[]): string {
	return fields.length > 6 ? `${fields.slice(0, 6).join(', ')} and ${fields.length - 6} more` : fields.join(', ');
}

/**
 * The `Fields` parameter of an operation, generated from one scope of the catalogue: every fieldset
 * and single field the API allows there, and fields to suppress (sent with a leading `-`).
 */
export function fieldsPicker(scope: FieldScopeName, displayOptions: IDisplayOptions, defaultNote = ''): INodeProperties {
	const { fieldsets, fields } = FIELD_SCOPES[scope] as FieldScope;
	const fieldsetNames = Object.keys(fieldsets);
	const options: INodeProperties[] = [
		{
			displayName: 'Fields to Suppress',
			name: 'exclude',
			type: 'multiOptions',
			options: sortedOptions(fields),
			default: [],
			description: 'Fields left out even when a chosen fieldset contains them',
		},
		{
			displayName: 'Single Fields',
			name: 'include',
			type: 'multiOptions',
			options: sortedOptions(fields),
			default: [],
			description: 'Fields returned in addition to the chosen fieldsets',
		},
	];
	if (fieldsetNames.length > 0) {
		options.splice(1, 0, {
			displayName: 'Fieldsets',
			name: 'fieldsets',
			type: 'multiOptions',
			options: sortedOptions(fieldsetNames, (name) => preview(fieldsets[name])),
			default: [],
			description: 'Named groups of fields',
		});
	}
	return {
		displayName: 'Fields',
		name: 'fields',
		type: 'collection',
		placeholder: 'Choose Fields',
		default: {},
		displayOptions,
		description: `What each record contains. Nothing chosen returns the API's default fields.${defaultNote ? ` ${defaultNote}` : ''}.`.replace(/\.\.$/, '.'),
		options,
	};
}

/**
 * The names of one part of a choice: a list, or the comma-separated text an expression may give.
 * Undefined when the value is neither.
 */
function namesOf(value: unknown): string[] | undefined {
	if (value === undefined || value === null || value === '') return [];
	const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
	if (!list || list.some((name) => typeof name !== 'string')) return undefined;
	return (list as string[]).map((name) => name.trim()).filter(Boolean);
}

const CHOICE_PARTS = { fieldsets: 'Fieldsets', include: 'Single Fields', exclude: 'Fields to Suppress' } as const;

/** Names of a choice that the scope does not know; empty when the choice is valid. */
export function unknownFieldNames(scope: FieldScopeName, choice: FieldsChoice): string[] {
	if (!Object.hasOwn(FIELD_SCOPES, scope)) throw new Error(`Fields: "${typeof scope === 'string' ? scope : typeof scope}" has no fields`);
	const { fieldsets, fields } = FIELD_SCOPES[scope] as FieldScope;
	const known = new Set(fields);
	return [
		...(namesOf(choice.fieldsets) ?? []).filter((name) => !Object.hasOwn(fieldsets, name)),
		...[...(namesOf(choice.include) ?? []), ...(namesOf(choice.exclude) ?? [])].filter((name) => !known.has(name)),
	];
}

/**
 * The `Fields` query value of a choice (`Overview,PropID,-Owner`), or undefined when nothing was
 * chosen. Throws, naming them, when the choice has names the scope does not allow.
 */
export function toFieldsParam(scope: FieldScopeName, choice: FieldsChoice | undefined): string | undefined {
	if (choice === undefined || choice === null) return undefined;
	if (typeof choice !== 'object' || Array.isArray(choice)) {
		throw new Error('Fields: must be a choice of Fieldsets, Single Fields and Fields to Suppress');
	}
	const parts = {} as Record<keyof typeof CHOICE_PARTS, string[]>;
	for (const [part, label] of Object.entries(CHOICE_PARTS) as Array<[keyof typeof CHOICE_PARTS, string]>) {
		const names = namesOf(choice[part]);
		if (!names) throw new Error(`Fields > ${label}: must be a list of names, or names separated by commas`);
		parts[part] = names;
	}
	const unknown = unknownFieldNames(scope, parts);
	if (unknown.length > 0) {
		throw new Error(`Fields: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not allowed here`);
	}
	const names = [...parts.fieldsets, ...parts.include, ...parts.exclude.map((name) => `-${name}`)];
	return names.length > 0 ? names.join(',') : undefined;
}
