package api

import (
	"net/http"

	"github.com/gorilla/mux"
)

// routes is the whole route table, in one place.
func (s *Server) routes() http.Handler {
	r := mux.NewRouter()
	r.NotFoundHandler = http.HandlerFunc(s.handleWeb)
	r.MethodNotAllowedHandler = http.HandlerFunc(s.handleWeb)

	v1 := r.PathPrefix("/v1").Subrouter()
	v1.NotFoundHandler = http.HandlerFunc(s.noRouteJSON)
	v1.MethodNotAllowedHandler = http.HandlerFunc(s.noRouteJSON)

	// mux tries routes in their order, a regular expression each, and the API before the pages:
	// the public reads most asked come first (routing took 3.4% of a comment list's time when
	// they came after some twenty others).
	const id = "{id:[0-9]+}"
	pr := v1.PathPrefix("/user-technical").Subrouter()
	pr.HandleFunc("/searchUser", handle(s.handleSearchUser)).Methods(http.MethodPost)
	pr.HandleFunc("/searchUserSlag", handle(s.handleSearchUserSlag)).Methods(http.MethodPost)
	v1.HandleFunc("/comment/get", handle(s.handleCommentGet)).Methods(http.MethodPost)

	v1.HandleFunc("/config", handle(s.handleConfig)).Methods(http.MethodGet)

	// Reference data.
	v1.HandleFunc("/locations/province/list", handle(s.handleProvinceList)).Methods(http.MethodGet)
	v1.HandleFunc("/locations/cities/list/{provinceId}", handle(s.handleCityList)).Methods(http.MethodGet)
	v1.HandleFunc("/locations/nearest", handle(s.handleNearestCity)).Methods(http.MethodGet)
	v1.HandleFunc("/work_category/getTreeById", handle(s.handleCategoryTree)).Methods(http.MethodGet)
	v1.HandleFunc("/work_category/getFavourite", handle(s.handleCategoryFavourites)).Methods(http.MethodGet)

	// Business profiles (user-technical) and their search. The fixed paths come before the
	// numeric ones, and ids are numeric, so "getAllWithSoftDeleted" is never read as an id.
	pr.HandleFunc("/createProfile", handle(s.handleProfileCreate)).Methods(http.MethodPost)
	pr.HandleFunc("/update/"+id, handle(s.handleProfileUpdate)).Methods(http.MethodPut)
	pr.HandleFunc("/getAuthProfileById/"+id, handle(s.handleProfileGetAuth)).Methods(http.MethodGet)
	pr.HandleFunc("/getAll/"+id, handle(s.handleProfilesOfUser)).Methods(http.MethodGet)
	pr.HandleFunc("/getAllWithSoftDeleted", handle(s.handleProfilesAll)).Methods(http.MethodGet)
	pr.HandleFunc("/restore"+id, handle(s.handleProfileRestore)).Methods(http.MethodPut)
	pr.HandleFunc("/restore/"+id, handle(s.handleProfileRestore)).Methods(http.MethodPut)
	v1.HandleFunc("/search/suggest", handle(s.handleSuggest)).Methods(http.MethodGet)
	pr.HandleFunc("/"+id+"/stats", handle(s.handleProfileStats)).Methods(http.MethodGet)
	v1.HandleFunc("/stats/event", handle(s.handleStatsEvent)).Methods(http.MethodPost)
	v1.HandleFunc("/admin/stats", handle(s.handleAdminStats)).Methods(http.MethodGet)
	pr.HandleFunc("/"+id+"/flags", handle(s.handleProfileFlags)).Methods(http.MethodPut)
	pr.HandleFunc("/"+id, handle(s.handleProfileGet)).Methods(http.MethodGet)
	pr.HandleFunc("/"+id, handle(s.handleProfileDelete)).Methods(http.MethodDelete)

	// Moderation (admins).
	v1.HandleFunc("/admin/user-technical", handle(s.handleAdminProfiles)).Methods(http.MethodGet)
	v1.HandleFunc("/admin/user-technical/"+id+"/status", handle(s.handleAdminProfileStatus)).Methods(http.MethodPut)

	// Comments and scores, blogs, the contact form, and their moderation.
	v1.HandleFunc("/comment/add", handle(s.handleCommentAdd)).Methods(http.MethodPost)
	v1.HandleFunc("/comment/edit", handle(s.handleCommentEdit)).Methods(http.MethodPut)
	v1.HandleFunc("/comment/getCommentRegisterByMe", handle(s.handleCommentMine)).Methods(http.MethodPost)
	v1.HandleFunc("/comment/reply", handle(s.handleCommentReply)).Methods(http.MethodPost)
	v1.HandleFunc("/admin/comment", handle(s.handleAdminComments)).Methods(http.MethodGet)
	v1.HandleFunc("/admin/comment/"+id+"/status", handle(s.handleAdminCommentStatus)).Methods(http.MethodPut)
	v1.HandleFunc("/blog/add", handle(s.handleBlogAdd)).Methods(http.MethodPost)
	v1.HandleFunc("/blog/edit", handle(s.handleBlogEdit)).Methods(http.MethodPut)
	v1.HandleFunc("/blog/edit/"+id, handle(s.handleBlogEdit)).Methods(http.MethodPut)
	v1.HandleFunc("/blog/get/{key}", handle(s.handleBlogGet)).Methods(http.MethodGet)
	v1.HandleFunc("/blog/getAuth/"+id, handle(s.handleBlogGetAuth)).Methods(http.MethodGet)
	v1.HandleFunc("/blog/getAuthAll", handle(s.handleBlogGetAuthAll)).Methods(http.MethodPost)
	v1.HandleFunc("/blog/search", handle(s.handleBlogSearch)).Methods(http.MethodPost)
	v1.HandleFunc("/blog/delete/"+id, handle(s.handleBlogDelete)).Methods(http.MethodDelete)
	v1.HandleFunc("/admin/blog", handle(s.handleAdminBlogs)).Methods(http.MethodGet)
	v1.HandleFunc("/admin/blog/"+id+"/status", handle(s.handleAdminBlogStatus)).Methods(http.MethodPut)
	v1.HandleFunc("/report/add", handle(s.handleReportAdd)).Methods(http.MethodPost)
	v1.HandleFunc("/admin/report", handle(s.handleAdminReports)).Methods(http.MethodGet)
	v1.HandleFunc("/admin/report/{entity}/"+id+"/status", handle(s.handleAdminReportStatus)).Methods(http.MethodPut)
	v1.HandleFunc("/critics-and-suggestions/add", handle(s.handleCriticAdd)).Methods(http.MethodPost)
	v1.HandleFunc("/critics-and-suggestions/addWithAuth", handle(s.handleCriticAddWithAuth)).Methods(http.MethodPost)
	v1.HandleFunc("/critics-and-suggestions", handle(s.handleCritics)).Methods(http.MethodGet)
	v1.HandleFunc("/admin/critics/"+id+"/read", handle(s.handleCriticRead)).Methods(http.MethodPut)

	// Requests for a price (leads).
	v1.HandleFunc("/send-sms/sendSmsForLead", handle(s.handleSendLeadCode)).Methods(http.MethodPost)
	v1.HandleFunc("/lead/verify", handle(s.handleLeadVerify)).Methods(http.MethodPost)
	v1.HandleFunc("/lead/upload", handle(s.handleLeadUpload)).Methods(http.MethodPost)
	v1.HandleFunc("/lead/add", handle(s.handleLeadAdd)).Methods(http.MethodPost)
	v1.HandleFunc("/lead/getMine", handle(s.handleLeadMine)).Methods(http.MethodPost)
	v1.HandleFunc("/lead/getForProfile", handle(s.handleLeadForProfile)).Methods(http.MethodPost)
	v1.HandleFunc("/lead/"+id+"/answer", handle(s.handleLeadAnswer)).Methods(http.MethodPut)
	v1.HandleFunc("/lead/"+id+"/status", handle(s.handleLeadStatus)).Methods(http.MethodPut)

	// Notifications: the bell and the SMS notices' opt-outs.
	v1.HandleFunc("/notification/list", handle(s.handleNotificationList)).Methods(http.MethodGet)
	v1.HandleFunc("/notification/read", handle(s.handleNotificationRead)).Methods(http.MethodPut)
	v1.HandleFunc("/notification/sms", handle(s.handleNotificationSMSGet)).Methods(http.MethodGet)
	v1.HandleFunc("/notification/sms", handle(s.handleNotificationSMSSet)).Methods(http.MethodPut)

	// Accounts (SPEC.md §7) and uploads.
	v1.HandleFunc("/send-sms/sendSmsForSignUp", handle(s.handleSendSignupCode)).Methods(http.MethodPost)
	v1.HandleFunc("/send-sms/sendSmsForReset", handle(s.handleSendResetCode)).Methods(http.MethodPost)
	v1.HandleFunc("/send-sms/sendSmsForLogin", handle(s.handleSendLoginCode)).Methods(http.MethodPost)
	v1.HandleFunc("/user/create", handle(s.handleUserCreate)).Methods(http.MethodPost)
	v1.HandleFunc("/user/reset-password", handle(s.handleResetPassword)).Methods(http.MethodPost)
	v1.HandleFunc("/user/loginWithCode", handle(s.handleLoginWithCode)).Methods(http.MethodPost)
	v1.HandleFunc("/user/login", handle(s.handleLogin)).Methods(http.MethodPost)
	v1.HandleFunc("/user/logout", handle(s.handleLogout)).Methods(http.MethodPost)
	v1.HandleFunc("/user/edit", handle(s.handleUserEdit)).Methods(http.MethodPut)
	v1.HandleFunc("/user", handle(s.handleUserGet)).Methods(http.MethodGet)
	v1.HandleFunc("/upload-file", handle(s.handleUpload)).Methods(http.MethodPost)

	// Saved businesses (the heart) and the short links shared and printed as QR codes.
	v1.HandleFunc("/saved", handle(s.handleSaved)).Methods(http.MethodGet)
	v1.HandleFunc("/saved", handle(s.handleSavedMerge)).Methods(http.MethodPost)
	v1.HandleFunc("/saved/{profileId}", handle(s.handleSavedPut)).Methods(http.MethodPut)
	v1.HandleFunc("/saved/{profileId}", handle(s.handleSavedDelete)).Methods(http.MethodDelete)
	// The verified badge and claiming (issue #21).
	s.ownerRoutes(v1, pr)

	r.HandleFunc("/healthz", s.handleHealth).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/robots.txt", s.handleRobots).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/sitemap.xml", handle(s.handleSitemapIndex)).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/sitemap-pages.xml", handle(s.handleSitemapPages)).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc("/sitemap-profiles-{page:[0-9]+}.xml", handle(s.handleSitemapProfiles)).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc(ogSitePath, handle(s.handleOGCard)).Methods(http.MethodGet, http.MethodHead)
	r.HandleFunc(ogTradePrefix+"{slug:[a-z0-9-]+}.png", handle(s.handleOGCard)).Methods(http.MethodGet, http.MethodHead)
	for _, prefix := range []string{ogProfileCardPrefix, ogBlogCardPrefix} {
		r.HandleFunc(prefix+"{id:[0-9]+}-{lang:fa|en}-{version:[0-9a-f]+}.png", handle(s.handleShareCard)).Methods(http.MethodGet, http.MethodHead)
	}
	r.HandleFunc("/sitemap-blogs-{page:[0-9]+}.xml", handle(s.handleSitemapBlogs)).Methods(http.MethodGet, http.MethodHead)

	r.HandleFunc("/p/{id}", s.handleShortLink).Methods(http.MethodGet, http.MethodHead)
	r.PathPrefix("/uploads/").HandlerFunc(s.handleUploadFile).Methods(http.MethodGet, http.MethodHead)

	if s.metrics != nil {
		// /metrics itself is served on its own listener (MetricsHandler, serve --metrics-addr),
		// never to the public one.
		r.Use(labelRoute)
	}
	r.Use(s.limitSearch)
	s.router = r

	var h http.Handler = r
	h = s.withAuth(h)
	h = withGzip(h)
	h = s.withSecurityHeaders(h)
	h = withRecover(h)
	h = s.metrics.wrap(h)
	h = s.withRequest(h)
	return h
}
