// The API's names and values (docs/api.md). No imports: the sandbox reads it too.

function words(text: string): string[] {
	return text.trim().split(/\s+/);
}

export const PROPERTY_FIELDSETS = {
	Grid: words(`
		PType Address City SqFt Beds Baths AVM AvailableEquity Owner PhoneAvailability
		EmailAvailability isSameMailingOrExempt isListedForSale DistressScore
	`),
	GridImport: words(`PType State County Address City ZipFive APN Owner`),
	GridOptional: words(`
		PropID State County ZipFive Subdivision APN LotSize LotSizeAcres YearBuilt Units Stories
		Pool AssessedValue AnnualTaxes EstimatedTaxRate ValuePerSF EquityPercent NumberLoans
		TotalLoanBalance EstimatedRent LastTransferRecDate LastTransferType LastTransferValue
		LastTransferSeller LastTransferDownPaymentPercent PriorTransferChangeInPrice
		PriorTransferChangeInPricePercent PriorTransferMonthsSince FirstLenderOriginal FirstPurpose
		FirstDate FirstAmount FirstRate ForeclosureStage ForeclosureRecDate SaleDate
		OriginalSaleDate PreviousSaleDate SaleTime SalePlace PostReason SaleAmount OpeningBid
		WinningBid DefaultAmount DefaultAsOf LisPendensType Trustee TrusteePhone TrusteeSaleNum
		Attorney CaseNumber DOTPosition DOTRecDate DOTAmount ForeclosingLender ListingPrice
		DaysOnMarket inForeclosure isNotSameMailingOrExempt isSiteVacant isMailVacant isFreeAndClear
		isHighEquity isCashBuyer isUnderwater isDeceasedProperty isPreforeclosure isAuction
		isBankOwned inTaxDelinquency inDivorce inBankruptcyProperty PropertyHasOpenPersonLiens
		PropertyHasOpenLiens hasRecentEviction inProbateProperty
	`),
	Card: words(`
		PropID Address City State ZipFive PType AdvancedPropertyType Beds Baths SqFt YearBuilt Owner
		Owner2 LotSize isSameMailingOrExempt isNotSameMailingOrExempt isHighEquity isUnderwater
		isFreeAndClear isRecentFlip AVM AvailableEquity isRecentSale AssessedValue TotalLoanBalance
		isCashBuyer isDeceasedProperty inTaxDelinquency inForeclosure LastTransferValue
		isListedForSale Persons inDivorce inBankruptcyProperty PropertyHasOpenPersonLiens
		PropertyHasOpenLiens isPreforeclosure isAuction isBankOwned DistressScore hasRecentEviction
		inProbateProperty isExpiredListing
	`),
	Map: words(`PropID PType Latitude Longitude`),
	Mobile: words(`
		PropID Address City PType Beds Baths SqFt YearBuilt isSameMailingOrExempt isSameMailing
		isNotSameMailingOrExempt isHighEquity isUnderwater isFreeAndClear isRecentFlip AVM
		AvailableEquity isRecentSale AssessedValue TotalLoanBalance isCashBuyer isDeceasedProperty
		inTaxDelinquency inForeclosure isListedForSale inDivorce inBankruptcyProperty
		PropertyHasOpenPersonLiens PropertyHasOpenLiens isPreforeclosure isAuction isBankOwned
		DistressScore hasRecentEviction inProbateProperty isExpiredListing
	`),
	Overview: words(`
		PropID PType AdvancedPropertyType Address City State ZipFive Latitude Longitude
		inTaxDelinquency StatusLevel InterestLevel YearBuilt Beds Baths SqFt LotSize LotSizeAcres
		isSiteVacant isListedForSale inForeclosure isSameMailingOrExempt isSameMailing
		isNotSameMailingOrExempt isHighEquity isUnderwater isFreeAndClear isRecentSale isRecentFlip
		isCashBuyer isDeceasedProperty AVM AssessedValue AvailableEquity TotalLoanBalance
		LastTransferValue LastTransferRecDate inDivorce inBankruptcyProperty
		PropertyHasOpenPersonLiens PropertyHasOpenLiens isPreforeclosure isAuction isBankOwned
		DistressScore hasRecentEviction inProbateProperty isExpiredListing
	`),
	PropertyTab: words(`
		Address City State ZipFive County APN PropID Latitude Longitude Subdivision
		SiteCongressionalDistrict SchoolDistrict CensusTract CensusBlock CarrierRoute TaxRateArea
		Range Township Section LegalBookPage LegalBlock LegalLots FullLegal DirectionsURL
		AssessorURL AdvancedPropertyType LotSize LotSizeAcres LotFrontFootage LotDepthFootage
		isSiteVacant Zoning UtilitiesType ViewType LocationInfluence FloodZone FloodZoneRisk
		FloodMapDate FloodMapNumber YearBuilt SqFt Beds Baths Units Stories Rooms GarageSize Pool
		Fireplace AirCond Heating BasementType BasementFinishType BasementSqFt GarageSqFt
		ImprovementCondition BuildingQuality ConstructionType FoundationType FrameType
		ExteriorWallType FloorType RoofType AssessedValue LandValue ImpValue AnnualTaxes
		EstimatedTaxRate AssessedYear TaxYear FirstInstallmentAmount FirstInstallmentPaid
		SecondInstallmentAmount SecondInstallmentPaid ThirdInstallmentAmount ThirdInstallmentPaid
		FourthInstallmentAmount FourthInstallmentPaid DelinquentYear DelinquentAmount
		NumberDelinquentInstallments Taxpayer isMailVacant MailCongressionalDistrict OwnerExemption
		TaxSearchURL DisclaimerDetails _links
	`),
	TransactionsTab: words(`
		Transactions ForeclosureSelector County RecorderSearchURL DisclaimerDetails NoticeKey _links
		EvictionFilings
	`),
	ListingsTab: words(`
		Address City State ZipFive OwnerFirstName OwnerLastName OwnerAddress OwnerCity OwnerState
		OwnerZipFive DisclaimerDetails _links
	`),
	ValueTab: words(`
		AVM AssessedValue TotalLoanBalance AvailableEquity LastTransferRecDate LastTransferValue
		LastTransferDownPayment LastTransferType MyValue MyValuePerSqFt MyValueDate AVMPerSqFt
		AVMAsOf ListingPrice ListingPricePerSqFt ListingDate RentBreakEven RentBreakEvenPerSqFt
		RentBreakEvenDate CompsSales CompsListingsForSale MyRent MyRentPerSqFt MyRentDate HUDRent
		HUDRentPerSqFt HUDRentDate ValueBreakEven ValueBreakEvenPerSqFt ValueBreakEvenDate
		DisclaimerDetails _links
	`),
	MyInfoTab: words(`DisclaimerDetails _links`),
	LimitedREI: words(`
		Address AdvancedPropertyType AirCond AssessedValue AssessedYear AvailableEquity AVM AVMAsOf
		AVMPerSqFt AVMReliability BasementFinishType BasementSqFt BasementType Baths Beds City
		ConstructionType DaysOnMarket DefaultAmount DefaultAsOf DelinquentAmount DelinquentYear
		EquityPercent ExteriorWallType FirstAmount FirstAmountLTV FirstConcurrent FirstDate
		FirstLenderOriginal FirstLoanType FirstPurpose FirstRate FirstRateType FirstTermInYears
		FloodZone FloodZoneRisk FloorType ForeclosureRecDate ForeclosureStage FoundationType
		FrameType GarageSize Heating HVAC ImprovementCondition inBankruptcyProperty inDivorce
		inForeclosure inTaxDelinquency isAuction isBankOwned isCashBuyer isDeceasedProperty
		isFreeAndClear isHighEquity isListedForSale isMailVacant isNotSameMailingOrExempt
		isPreforeclosure isRecentFlip isRecentSale isSameMailing isSameMailingOrExempt isSiteVacant
		isUnderwater LastTransferDownPayment LastTransferDownPaymentPercent LastTransferRecDate
		LastTransferSeller LastTransferType LastTransferValue LisPendensType ListingDate
		ListingPrice ListingStatus ListingType LotSize LotSizeAcres NoticeKey
		NumberDelinquentInstallments NumberLoans OpeningBid OriginalSaleDate Owner OwnerAddress
		OwnerCity OwnerFirstName OwnerLastName OwnershipType OwnerState OwnerZipFive Persons Pool
		PostReason PreviousSaleDate PropertyHasOpenLiens PropertyHasOpenPersonLiens PropID RoofType
		Rooms SaleAmount SaleDate SalePlace SqFt State Stories Subdivision TaxSearchURL Trustee
		TrusteeAddress TrusteeCityStZip TrusteePhone TrusteeSaleNum Units UtilitiesType ViewType
		WinningBid YearBuilt ZipFive Zoning
	`),
	All: words(`
		PropID PType Address City State ZipFive County APN Latitude Longitude Subdivision
		CensusTract CensusBlock CarrierRoute TaxRateArea TaxSearchURL AssessorURL RecorderSearchURL
		Range Township Section LegalBookPage LegalBlock LegalLots LegalTractNumber FullLegal
		DirectionsURL SiteCongressionalDistrict isSiteVacant SchoolDistrict
		MailCongressionalDistrict isMailVacant AdvancedPropertyType LotSize LotSizeAcres Zoning
		YearBuilt SqFt Beds Baths Units Stories Rooms GarageSize Pool Fireplace AirCond Heating
		BasementType BasementFinishType BasementSqFt ImprovementCondition BuildingQuality
		ConstructionType FoundationType FrameType ExteriorWallType FloorType RoofType UtilitiesType
		ViewType LocationInfluence GarageSqFt LotFrontFootage LotDepthFootage AssessedValue
		LandValue ImpValue AnnualTaxes EstimatedTaxRate AssessedYear OwnerExemption Transactions
		CountyRecorderLink LastTransferType CLTV EquityPercent ForeclosureSelector NoticeKey
		ForeclosureStage TrusteeSaleNum SaleDate SaleTime SalePlace PostReason PreviousSaleDate
		OriginalSaleDate SaleAmount DefaultAmount DefaultAsOf OpeningBid WinningBid
		ForeclosureRecDate ForeclosureDocNumber TrusteeAddress TrusteeCityStZip Trustee TrusteePhone
		ForeclosureBookNumber ForeclosurePageNumber Attorney AttorneyPhone CaseNumber LisPendensType
		DOTRecDate DOTDocNum DOTAmount DOTPosition ForeclosingLender LenderAddress LenderCityStZip
		Taxpayer DisclaimerDetails PhoneAvailability EmailAvailability isPreforeclosure isAuction
		isBankOwned _links AVM TotalLoanBalance AvailableEquity LastTransferRecDate
		LastTransferValue LastTransferDownPayment MyValue MyValuePerSqFt MyValueDate AVMPerSqFt
		AVMAsOf ListingPrice ListingPricePerSqFt ListingDate DaysOnMarket RentBreakEven
		RentBreakEvenPerSqFt RentBreakEvenDate MyRent MyRentPerSqFt MyRentDate HUDRent
		HUDRentPerSqFt HUDRentDate ValueBreakEven ValueBreakEvenPerSqFt ValueBreakEvenDate
		CompsSales CompsListingsForSale isListedForSale TaxYear FirstInstallmentAmount
		FirstInstallmentPaid SecondInstallmentAmount SecondInstallmentPaid ThirdInstallmentAmount
		ThirdInstallmentPaid FourthInstallmentAmount FourthInstallmentPaid DelinquentYear
		DelinquentAmount NumberDelinquentInstallments FloodZone FloodZoneRisk FloodMapDate
		FloodMapNumber
	`),
} as const satisfies Record<string, readonly string[]>;

function unique(lists: ReadonlyArray<readonly string[]>): string[] {
	return [...new Set(lists.flat())];
}

// Every field of a property fieldset, and `Persons` (the owners).
export const PROPERTY_FIELDS: readonly string[] = unique([
	...Object.values(PROPERTY_FIELDSETS),
	['Persons'],
]);

const FORECLOSURE_FIELDS = PROPERTY_FIELDSETS.GridOptional.filter(
	(field) =>
		/^(Foreclos|Sale|OriginalSale|PreviousSale|PostReason|OpeningBid|WinningBid|Default|LisPendens|Trustee|Attorney|CaseNumber|DOT)/.test(
			field,
		) || ['inForeclosure', 'isPreforeclosure', 'isAuction', 'isBankOwned'].includes(field),
);

// Named by the lists document without fields: GridOptional's foreclosure columns, PropertyTab's building.
export const LIST_ITEM_FIELDSETS = {
	GridForeclosureOptional: ['PropID', ...FORECLOSURE_FIELDS],
	GridOptional: PROPERTY_FIELDSETS.GridOptional,
	Card: PROPERTY_FIELDSETS.Card,
	Map: PROPERTY_FIELDSETS.Map,
	Mobile: PROPERTY_FIELDSETS.Mobile,
	Overview: PROPERTY_FIELDSETS.Overview,
	Details: [
		'PropID',
		...PROPERTY_FIELDSETS.PropertyTab.filter((field) =>
			words(`
				YearBuilt SqFt Beds Baths Units Stories Rooms GarageSize Pool Fireplace AirCond
				Heating LotSize LotSizeAcres Zoning
			`).includes(field),
		),
	],
	PropertyTab: PROPERTY_FIELDSETS.PropertyTab,
	LimitedREI: PROPERTY_FIELDSETS.LimitedREI,
} as const satisfies Record<string, readonly string[]>;

export const PERSON_FIELDSETS = {
	default: words(`
		isPrimaryContact OwnershipRole Status FirstName MiddleName LastName Suffix EntityName Age
		Gender Phone Email SocialAccounts MailAddress PrimaryResidence OtherProperties Occupation
		isDeceased
	`),
	overview: words(`
		isPrimaryContact OwnershipRole FirstName MiddleName LastName Suffix EntityName Age Gender
		Occupation Phone Email SocialAccounts isDeceased
	`),
} as const satisfies Record<string, readonly string[]>;

export const PERSON_FIELDS = words(`
	PropID PersonKey isPrimaryContact OwnershipRole PrimaryResidence OtherProperties Status PersonType FirstName MiddleName LastName Suffix
	EntityName Age Gender MailAddress Occupation Phone Email
`);

// The lists document's "List" table, then the read fields docs/api.md names from the service's notes.
export const LIST_FIELDS = [
	'ListID',
	'ListName',
	'ListType',
	'isMonitored',
	'ImportSource',
	'ImportMatchThreshold',
	'ImportType',
	'ImportContactOptions',
	'GroupName',
	'DisplayOrder',
	'TotalCount',
	'Criteria',
	'LastViewed',
	'NewSinceLastViewedCount',
	'MonitoringStartedOn',
	'TotalImportItems',
	'TotalProcessedImportItems',
] as const;

export const IMPORT_RECORD_FIELDS = words(`
	FirstName LastName FullName Email EmailStatus Phone PhoneType PhoneStatus Address City State ZipFive County APN
`);
export const IMPORT_ITEM_FIELDS = [
	...words('ListID ListImportItemID'),
	...IMPORT_RECORD_FIELDS,
	...words('PropertyStatus PersonStatus MatchScore PropID PersonKey'),
];

export const WEBHOOK_FIELDS = [
	'WebhookID',
	'HookUrl',
	'WebhookName',
	'ClientName',
	'Secret',
] as const;

// The lists document gives the bankruptcy `Table` fieldset; the other kinds' are the sandbox's choice.
export const PERSON_RECORD_FIELDSETS = {
	bankruptcies: {
		Table: words(
			`BankruptcyID BankruptcyCaseNumber BankruptcyRecordingDate BankruptcyChapter BankruptcyStatus`,
		),
	},
	divorces: {
		Table: words(`DivorceID DivorceCaseNumber DivorceFilingDate DivorceCourt DivorceStatus`),
	},
	liens: { Table: words(`LienID LienType LienRecordingDate LienAmount LienHolder LienStatus`) },
	probates: {
		Table: words(`ProbateID ProbateCaseNumber ProbateFilingDate ProbateCourt ProbateStatus`),
	},
	relatives: { Table: words(`RelativeKey FirstName LastName Relationship Age`) },
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type PersonRecordKind = keyof typeof PERSON_RECORD_FIELDSETS;
export const PERSON_RECORD_KINDS = Object.keys(PERSON_RECORD_FIELDSETS) as PersonRecordKind[];

// The property document: `Fields` defaults to `Standard`; custom field lists are field IDs.
export const TRANSACTION_FIELDSETS = {
	Standard: words(`
		TransactionID RecordingDate DocumentType DocumentNumber Amount Buyer Seller Lender LoanAmount LoanType
	`),
} as const satisfies Record<string, readonly string[]>;
export const MAX_TRANSACTION_FIELD_IDS = 50;

export interface FieldScope {
	fieldsets: Readonly<Record<string, readonly string[]>>;
	fields: readonly string[];
	// The documents leave the fields open ("not shown"): the node sends other names as given.
	open?: boolean;
}

// Each kind of person record is a scope of its own: its one fieldset, Table, and Table's fields.
const recordScope = <Fieldsets extends { Table: readonly string[] }>(fieldsets: Fieldsets) =>
	({ fieldsets, fields: fieldsets.Table, open: true }) as const;

export const FIELD_SCOPES = {
	property: { fieldsets: PROPERTY_FIELDSETS, fields: PROPERTY_FIELDS },
	listItem: { fieldsets: LIST_ITEM_FIELDSETS, fields: PROPERTY_FIELDS, open: true },
	person: { fieldsets: PERSON_FIELDSETS, fields: PERSON_FIELDS },
	list: { fieldsets: {}, fields: LIST_FIELDS, open: true },
	importItem: { fieldsets: {}, fields: IMPORT_ITEM_FIELDS, open: true },
	webhook: { fieldsets: {}, fields: WEBHOOK_FIELDS, open: true },
	transaction: {
		fieldsets: TRANSACTION_FIELDSETS,
		fields: unique(Object.values(TRANSACTION_FIELDSETS)),
		open: true,
	},
	bankruptcies: recordScope(PERSON_RECORD_FIELDSETS.bankruptcies),
	divorces: recordScope(PERSON_RECORD_FIELDSETS.divorces),
	liens: recordScope(PERSON_RECORD_FIELDSETS.liens),
	probates: recordScope(PERSON_RECORD_FIELDSETS.probates),
	relatives: recordScope(PERSON_RECORD_FIELDSETS.relatives),
} as const satisfies Record<string, FieldScope>;

export type FieldScopeName = keyof typeof FIELD_SCOPES;

// What Simplify keeps: at most 10 fields a lead pipeline uses, most used first; the first, the ID, always.
export const SIMPLIFIED_FIELDS = {
	property: words(
		`PropID Address City State ZipFive Owner PType AVM AvailableEquity EquityPercent`,
	),
	person: words(`
		PersonKey PropID FirstName LastName EntityName OwnershipRole isPrimaryContact MailAddress
		Phone Email
	`),
	list: words(`
		ListID ListName ListType isMonitored TotalCount GroupName NewSinceLastViewedCount
		ImportSource ImportType TotalImportItems
	`),
	importItem: words(`
		ListImportItemID PropID PersonKey MatchScore PropertyStatus PersonStatus FullName Address
		City State
	`),
} as const satisfies Partial<Record<FieldScopeName, readonly string[]>>;
export type SimplifiedKind = keyof typeof SIMPLIFIED_FIELDS;

// Case-insensitive: the documents' own example is `Fields=overview,Persons` on a property endpoint.
export function fieldsetNamed(
	fieldsets: Readonly<Record<string, readonly string[]>>,
	name: string,
): string | undefined {
	const wanted = name.toLowerCase();
	return Object.keys(fieldsets).find((fieldset) => fieldset.toLowerCase() === wanted);
}

export function isTransactionFieldName(name: string): boolean {
	const { fieldsets, fields } = FIELD_SCOPES.transaction;
	return (
		fieldsetNamed(fieldsets, name) !== undefined || (fields as readonly string[]).includes(name)
	);
}

// What the property document's "at most 50 field IDs" counts: unknown names, once, less `-` ones.
export function transactionCustomFieldIds(names: readonly string[]): string[] {
	const bare = (name: string) => (name.startsWith('-') ? name.slice(1) : name);
	const custom = names.filter((name) => !isTransactionFieldName(bare(name)));
	const suppressed = new Set(custom.filter((name) => name.startsWith('-')).map(bare));
	return [...new Set(custom)].filter((name) => !name.startsWith('-') && !suppressed.has(name));
}

export function fieldNames<const Fields extends readonly string[]>(
	_scope: Fields,
	...names: Array<Fields[number]>
): string {
	return names.join(',');
}

export const LIST_TYPES = ['dynamic', 'static', 'import'] as const;
export type ListType = (typeof LIST_TYPES)[number];
export const IMPORT_SOURCES = ['api', 'file', 'zapier'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];
export const IMPORT_TYPES = ['property', 'person'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

export const PROPERTY_STATUSES = ['Selected', 'Matched', 'Pending', 'Not Found'] as const;
export const PERSON_STATUSES = [
	'Matched Primary',
	'Matched Set as Primary',
	'Added as Primary',
	'Matched',
	'Selected as Primary',
	'Selected',
	'Not Found',
	'No Longer at Property',
] as const;
export type PropertyStatus = (typeof PROPERTY_STATUSES)[number];
export type PersonStatus = (typeof PERSON_STATUSES)[number];

// Every field the automation PUT writes, as when nothing is set (levels null: 0 is an action, "unset").
const emptyAutomation = {
	isEnabled: 0,
	Triggers: '',
	DailyEmailMemberIDs: '',
	ImmediateEmailMemberIDs: '',
	ExportToWebhookIDs: '',
	DirectMailOrderID: '',
	EmailMarketingOrderID: '',
	MobileNotificationMemberIDs: '',
	SetInterestLevel: null as number | null,
	SetStatusLevel: null as number | null,
	AddToLists: '',
	RemoveFromLists: '',
	PurchasePhone: 0,
	PurchaseEmail: 0,
};
export type AutomationFields = typeof emptyAutomation;
export const EMPTY_AUTOMATION: Readonly<AutomationFields> = emptyAutomation;

export const AUTOMATION_FLAG_FIELDS = ['isEnabled', 'PurchasePhone', 'PurchaseEmail'] as const;
export const AUTOMATION_NUMBERED_ID_FIELDS = [
	'ExportToWebhookIDs',
	'AddToLists',
	'RemoveFromLists',
] as const;
export const AUTOMATION_ID_FIELDS = [
	'DailyEmailMemberIDs',
	'ImmediateEmailMemberIDs',
	'MobileNotificationMemberIDs',
	...AUTOMATION_NUMBERED_ID_FIELDS,
] as const;
// 0 is the lowest: unset stars, status None.
export const AUTOMATION_LEVEL_MAX = { SetInterestLevel: 5, SetStatusLevel: 9 } as const;

export const TRIGGER_EVENTS = {
	newMatches: 'New Matches',
	statusChanges: 'Status Changes',
} as const;
// The `TriggerType` of each event in a webhook delivery (docs/api.md "Webhooks").
export const DELIVERY_TRIGGER_TYPES = { newMatch: 'New Match', change: 'Change' } as const;
export type DeliveryTriggerType =
	(typeof DELIVERY_TRIGGER_TYPES)[keyof typeof DELIVERY_TRIGGER_TYPES];
export const TRIGGER_VALUES = [
	TRIGGER_EVENTS.newMatches,
	TRIGGER_EVENTS.statusChanges,
	`${TRIGGER_EVENTS.newMatches},${TRIGGER_EVENTS.statusChanges}`,
] as const;

export const LIST_NAME_MAX_CHARACTERS = 50;

// Limit's default and maximum (docs/api.md); 500 also bounds every request naming properties by PropID.
export const PAGE_LIMITS = {
	properties: { defaultLimit: 100, maxLimit: 500 },
	personRecords: { defaultLimit: 100, maxLimit: 500 },
	listItems: { defaultLimit: 500, maxLimit: 1000 },
	importItems: { defaultLimit: 500, maxLimit: 1000 },
	webhooks: { defaultLimit: 500, maxLimit: 1000 },
} as const;
