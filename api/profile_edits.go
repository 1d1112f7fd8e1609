package api

import (
	"encoding/json"
	"net/http"

	"kardan/store"
)

// pendingEditForm is an owner's edit of an accepted profile waiting for review (or rejected),
// shown to the owner and admins beside the public version as "pending_edit".
type pendingEditForm struct {
	Status        string             `json:"status"`
	RegisterAdmin registerAdmin      `json:"register_admin"`
	CreateAt      string             `json:"create_at"`
	Profile       store.ProfileInput `json:"profile"`
}

// appendWithEdit appends the read form f with its "pending_edit" (null when there is none).
// The form is the hand-encoded public one; the edit, rare and private, goes through encoding/json.
func appendWithEdit(b []byte, f *profileForm, e *store.ProfileEdit) ([]byte, error) {
	b = appendProfileForm(b, f)
	b = b[:len(b)-1] // the form's closing brace
	b = append(b, `,"pending_edit":`...)
	if e == nil {
		b = append(b, "null"...)
	} else {
		in := e.Input
		if in.ListObject == nil {
			in.ListObject = json.RawMessage("null")
		}
		ej, err := json.Marshal(pendingEditForm{Status: e.Status, RegisterAdmin: registerAdmin{AdminRegisterID: e.AdminID, Description: e.Note},
			CreateAt: isoTime(e.CreateAt), Profile: in})
		if err != nil {
			return nil, err
		}
		b = append(b, ej...)
	}
	return append(b, '}'), nil
}

// writeOwnProfile writes the owner's (or an admin's) view of p: the public version and the
// edit waiting for review.
func (s *Server) writeOwnProfile(w http.ResponseWriter, r *http.Request, p *store.Profile, viewer *store.User) error {
	f, err := s.profileForm(r.Context(), p, viewer)
	if err != nil {
		return err
	}
	e, err := s.store.ProfileEdit(r.Context(), p.ID)
	if err != nil {
		return err
	}
	b, err := appendWithEdit([]byte(`{"payload":`), f, e)
	if err != nil {
		return err
	}
	writeRaw(w, append(b, ",\"message\":\"\"}\n"...))
	return nil
}

// writeEditedList writes the admin queue of waiting edits: each profile's public version with
// its edit.
func (s *Server) writeEditedList(w http.ResponseWriter, r *http.Request, ps []*store.Profile, total int, viewer *store.User) error {
	fs, err := s.profileForms(r.Context(), ps, viewer, point{})
	if err != nil {
		return err
	}
	b := []byte(`{"payload":{"count":`)
	b = append(b, []byte(jsonInt(total))...)
	b = append(b, `,"profiles":[`...)
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		e, err := s.store.ProfileEdit(r.Context(), ps[i].ID)
		if err != nil {
			return err
		}
		if b, err = appendWithEdit(b, f, e); err != nil {
			return err
		}
	}
	writeRaw(w, append(b, "]},\"message\":\"\"}\n"...))
	return nil
}

func jsonInt(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
