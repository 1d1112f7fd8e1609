package api

// ownerMessages are the notifications' and the leads' messages.
var ownerMessages = map[string][2]string{
	"field.ids":     {"شناسه‌ها", "ids"},
	"field.kind":    {"نوع", "kind"},
	"field.enabled": {"روشن یا خاموش", "on or off"},
}
