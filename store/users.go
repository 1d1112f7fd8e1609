package store

// Role is a user's role; admin powers come only from the stored role.
type Role string

// The roles.
const (
	RoleUser  Role = "user"
	RoleAdmin Role = "admin"
)

// User is a registered account. PasswordHash never leaves the server.
type User struct {
	ID           int64
	NumberPhone  string
	Name         string
	PasswordHash string
	ProfileImage string
	Role         Role
	CreateAt     int64
	UpdateAt     int64
}

// IsAdmin reports whether u is an administrator.
func (u *User) IsAdmin() bool { return u != nil && u.Role == RoleAdmin }
