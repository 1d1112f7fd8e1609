package api

import (
	"net/http"
	"strconv"

	"kardan/store"
)

// writeCommentList writes comment/get's answer, in the envelope, as ok would write the map
// {comments: commentForms(cs, viewer), count, scores, with_photos_count}: encoding/json's
// reflection over that map and its forms was a tenth of the answer's server time.
// TestCommentListAsEncodingJSON holds the two to the same bytes.
func writeCommentList(w http.ResponseWriter, cs []*store.Comment, viewer *store.User, total int, counts store.CommentCounts) {
	buf := jsonBufs.Get().(*[]byte)
	b := append((*buf)[:0], `{"payload":{"comments":[`...)
	admin := viewer.IsAdmin()
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCommentForm(b, c, admin)
	}
	b = append(b, `],"count":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	b = append(b, `,"scores":[`...)
	for i, n := range counts.Scores {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, `],"with_photos_count":`...)
	b = strconv.AppendInt(b, int64(counts.WithPhotos), 10)
	b = append(b, "},\"message\":\"\"}\n"...)
	writeRaw(w, b)
	putBuf(buf, b)
}

// appendCommentForm appends commentFormOf(c, viewer) as encoding/json writes it; admin is
// viewer.IsAdmin().
func appendCommentForm(b []byte, c *store.Comment, admin bool) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, c.ID, 10)
	b = append(b, `,"user_technical_id":`...)
	b = strconv.AppendInt(b, c.ProfileID, 10)
	b = append(b, `,"category_list":`...)
	b = appendInt64s(b, c.CategoryList)
	b = append(b, `,"description":`...)
	b = appendString(b, c.Description)
	b = append(b, `,"score":`...)
	b = strconv.AppendInt(b, int64(c.Score), 10)
	b = append(b, `,"images":`...)
	b = appendStrings(b, c.Images)
	b = append(b, `,"status":`...)
	b = appendString(b, c.Status())
	b = append(b, `,"create_at":`...)
	b = appendString(b, isoTime(c.CreateAt))
	b = append(b, `,"update_at":`...)
	b = appendString(b, isoTime(c.UpdateAt))
	b = append(b, `,"user":{"id":`...)
	b = strconv.AppendInt(b, c.UserID, 10)
	b = append(b, `,"name":`...)
	b = appendString(b, c.AuthorName)
	b = append(b, `,"profileImage":`...)
	b = appendString(b, c.AuthorImage)
	b = append(b, `},"reply":`...)
	if c.Reply == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"description":`...)
		b = appendString(b, *c.Reply)
		b = append(b, `,"create_at":`...)
		if c.ReplyAt != nil {
			b = appendString(b, isoTime(*c.ReplyAt))
		} else {
			b = append(b, `""`...)
		}
		b = append(b, '}')
	}
	if admin {
		b = append(b, `,"register_admin":{"adminRegisterId":`...)
		b = appendInt64Ptr(b, c.AdminID)
		b = append(b, `,"description":`...)
		b = appendString(b, c.AdminNote)
		b = append(b, '}')
	}
	return append(b, '}')
}
