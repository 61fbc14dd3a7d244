package reference

// The field limits and enumerations of validate.go, for the test that ties them to the OpenAPI
// document (spec_test.go).
var (
	Limits = map[string]int{
		"maxTitle": maxTitle, "maxColor": maxColor, "maxIcon": maxIcon, "maxStatus": maxStatus,
		"maxToolKey": maxToolKey, "maxWidgetTool": maxWidgetTool, "maxMasterKey": maxMasterKey,
		"maxSession": maxSession, "maxPerPage": maxPerPage,
	}
	Enums = map[string][]string{"priorities": priorities, "masterCardStatuses": masterCardStatuses, "cardTypes": cardTypes}
)
