package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"kardan/auth"
	"kardan/store"
)

func newUserCmd(g *Globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "user",
		Short: "Manage accounts: create, promote, demote, reset-password, list",
		Long: `user manages accounts from the operator's shell. Admin powers come only from the role stored
here (promote/demote), never from anything a client sends. Works beside a running server.`,
		SilenceUsage: true,
	}
	c.AddCommand(
		newUserCreateCmd(g),
		newUserRoleCmd(g, "promote", store.RoleAdmin, "Make the account with this mobile number an administrator"),
		newUserRoleCmd(g, "demote", store.RoleUser, "Take administrator powers away from the account with this mobile number"),
		newUserResetPasswordCmd(g),
		newUserListCmd(g),
	)
	return c
}

func phoneArg(raw string) (string, error) {
	phone, ok := store.NormalizeMobile(raw)
	if !ok {
		return "", fmt.Errorf("%q is not an Iranian mobile number (09xxxxxxxxx)", raw)
	}
	return phone, nil
}

func checkPasswordArg(pw string) error {
	short, long := auth.ValidPasswordLength(pw)
	switch {
	case short:
		return fmt.Errorf("the password must be at least %d characters", auth.PasswordMin)
	case long:
		return fmt.Errorf("the password can be at most %d characters", auth.PasswordMax)
	case auth.CommonPassword(pw):
		return fmt.Errorf("the password is one of the 10,000 most common ones; choose another")
	}
	return nil
}

// hashPassword hashes with the server's parameters; the CLI runs one hash at a time.
func hashPassword(ctx context.Context, pw string) (string, error) {
	return auth.NewHasher(auth.DefaultParams, 1).Hash(ctx, pw)
}

func notFoundPhone(err error, phone string) error {
	if store.ErrorCode(err) == store.ENotFound {
		return fmt.Errorf("no account has the mobile number %s", phone)
	}
	return err
}

func newUserCreateCmd(g *Globals) *cobra.Command {
	var phone, name, password string
	var admin bool
	c := &cobra.Command{
		Use:          "create",
		Short:        "Create an account (without an SMS code)",
		Example:      "  kardan user create --phone 09121234567 --name 'Sara' --password 'a long secret' --admin",
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := phoneArg(phone)
			if err != nil {
				return err
			}
			if err := checkPasswordArg(password); err != nil {
				return err
			}
			return withStore(cmd, g, func(ctx context.Context, st *store.Store) error {
				hash, err := hashPassword(ctx, password)
				if err != nil {
					return err
				}
				u := &store.User{NumberPhone: p, Name: name, PasswordHash: hash, Role: store.RoleUser}
				if admin {
					u.Role = store.RoleAdmin
				}
				if err := st.CreateUser(ctx, u); err != nil {
					if store.ErrorCode(err) == store.EConflict {
						return fmt.Errorf("the mobile number %s is already registered", p)
					}
					return err
				}
				fmt.Fprintf(g.Out, "created user %d: %s (%s)\n", u.ID, u.NumberPhone, u.Role)
				return nil
			})
		},
	}
	f := c.Flags()
	f.StringVar(&phone, "phone", "", "mobile number (required)")
	f.StringVar(&name, "name", "", "display name")
	f.StringVar(&password, "password", "", "password, at least 8 characters (required)")
	f.BoolVar(&admin, "admin", false, "make the account an administrator")
	c.MarkFlagRequired("phone")
	c.MarkFlagRequired("password")
	return c
}

func newUserRoleCmd(g *Globals, use string, role store.Role, short string) *cobra.Command {
	return &cobra.Command{
		Use:          use + " PHONE",
		Short:        short,
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := phoneArg(args[0])
			if err != nil {
				return err
			}
			return withStore(cmd, g, func(ctx context.Context, st *store.Store) error {
				u, err := st.SetUserRole(ctx, p, role)
				if err != nil {
					return notFoundPhone(err, p)
				}
				fmt.Fprintf(g.Out, "user %d (%s) is now %s\n", u.ID, u.NumberPhone, u.Role)
				return nil
			})
		},
	}
}

func newUserResetPasswordCmd(g *Globals) *cobra.Command {
	var password string
	c := &cobra.Command{
		Use:          "reset-password PHONE",
		Short:        "Set a new password (random unless --password is given) and sign out every session",
		Args:         cobra.ExactArgs(1),
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := phoneArg(args[0])
			if err != nil {
				return err
			}
			generated := password == ""
			if generated {
				if password, err = auth.RandomPassword(); err != nil {
					return err
				}
			} else if err := checkPasswordArg(password); err != nil {
				return err
			}
			return withStore(cmd, g, func(ctx context.Context, st *store.Store) error {
				u, err := st.UserByPhone(ctx, p)
				if err != nil {
					return notFoundPhone(err, p)
				}
				hash, err := hashPassword(ctx, password)
				if err != nil {
					return err
				}
				// No session is kept: whoever knew the old password is signed out too.
				if _, err := st.UpdateUser(ctx, u.ID, store.UserUpdate{PasswordHash: &hash}, nil); err != nil {
					return err
				}
				fmt.Fprintf(g.Out, "password of user %d (%s) reset; every session signed out\n", u.ID, u.NumberPhone)
				if generated {
					fmt.Fprintf(g.Out, "new password: %s\n", password)
				}
				return nil
			})
		},
	}
	c.Flags().StringVar(&password, "password", "", "the new password (default: a random one, printed)")
	return c
}

func newUserListCmd(g *Globals) *cobra.Command {
	var admins bool
	var limit int
	c := &cobra.Command{
		Use:          "list",
		Short:        "List the accounts, newest first",
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 0 {
				return fmt.Errorf("--limit %d: want 0 (all) or more", limit)
			}
			return withStore(cmd, g, func(ctx context.Context, st *store.Store) error {
				f := store.UserFilter{Limit: limit}
				if admins {
					r := store.RoleAdmin
					f.Role = &r
				}
				// Rows are printed as they are read, the columns aligned a block at a time, so
				// that listing every account of a large site holds one block in memory.
				out := bufio.NewWriter(g.Out)
				tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tPHONE\tNAME\tROLE\tCREATED")
				shown := 0
				total, err := st.EachUser(ctx, f, func(u *store.User) error {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", u.ID, u.NumberPhone, u.Name, u.Role,
						time.Unix(u.CreateAt, 0).UTC().Format("2006-01-02 15:04"))
					if shown++; shown%userListBlock == 0 {
						return errors.Join(tw.Flush(), out.Flush())
					}
					return nil
				})
				if err != nil {
					return err
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				fmt.Fprintf(out, "%d of %d accounts\n", shown, total)
				return out.Flush()
			})
		},
	}
	c.Flags().BoolVar(&admins, "admins", false, "only administrators")
	c.Flags().IntVar(&limit, "limit", 50, "at most this many (0: all)")
	return c
}

// userListBlock is how many rows user list aligns and prints at a time.
const userListBlock = 1000
