package admin

// DeleteStale and UploadGrace let the external tests (which need storetest, itself importing
// admin) reach the purge's last step between the forgetting and the deleting.
var (
	DeleteStale = deleteStale
	UploadGrace = uploadGrace
)
