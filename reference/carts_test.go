package reference_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/opsapi/mocktoolkit/reference"
)

func asError(err error, target **reference.Error) bool { return errors.As(err, target) }

func TestRemoveCartItem(t *testing.T) {
	t.Run("removes the item and recomputes total_price and item_count (D34)", func(t *testing.T) {
		s, _ := newStore(t)
		c, err := s.RemoveCartItem(reference.RemoveCartItemInput{SessionToken: "cart-a", CartItemID: 2})
		wantCode(t, err, "")
		if c.ItemCount != 2 || len(c.Items) != 2 || c.TotalPrice != 13.00 || c.Status != reference.CartOpen || c.IsClaimed {
			t.Fatalf("cart = %+v", c)
		}
		c, err = s.RemoveCartItem(reference.RemoveCartItemInput{SessionToken: "cart-a", CartItemID: 3})
		wantCode(t, err, "")
		if c.TotalPrice != 12.99 || c.ItemCount != 1 {
			t.Fatalf("cart = %+v", c)
		}
		c, err = s.RemoveCartItem(reference.RemoveCartItemInput{SessionToken: "cart-a", CartItemID: 1})
		wantCode(t, err, "")
		if c.TotalPrice != 0 || c.ItemCount != 0 || c.Items == nil {
			t.Fatalf("empty cart = %+v", c)
		}
		_, err = s.RemoveCartItem(reference.RemoveCartItemInput{SessionToken: "cart-a", CartItemID: 1})
		wantCode(t, err, reference.ENOTFOUND)
	})
	tests := []struct {
		name string
		in   reference.RemoveCartItemInput
		code string
	}{
		{"rejects an unknown session token (D35)", reference.RemoveCartItemInput{SessionToken: "nope", CartItemID: 1}, reference.ENOTFOUND},
		{"treats an empty session token as missing (D44)", reference.RemoveCartItemInput{CartItemID: 1}, reference.EVALIDATION},
		{"refuses any removal from a locked cart (D35)", reference.RemoveCartItemInput{SessionToken: "cart-locked", CartItemID: 5}, reference.ECONFLICT},
		{"refuses a locked cart before looking at the item (D35)", reference.RemoveCartItemInput{SessionToken: "cart-locked", CartItemID: 999}, reference.ECONFLICT},
		{"rejects an item of another cart and changes neither (D35)", reference.RemoveCartItemInput{SessionToken: "cart-b", CartItemID: 1}, reference.ENOTFOUND},
		{"rejects an unknown item", reference.RemoveCartItemInput{SessionToken: "cart-a", CartItemID: 0}, reference.ENOTFOUND},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			_, err := s.RemoveCartItem(tt.in)
			wantCode(t, err, tt.code)
			if got := s.State().Carts; !reflect.DeepEqual(got, world().Carts) {
				t.Fatalf("carts changed: %+v", got)
			}
		})
	}
}

func TestRestoreConversation(t *testing.T) {
	status := func(s *reference.Store, id int64) string {
		for _, c := range s.State().Conversations {
			if c.ID == id {
				return c.Status
			}
		}
		return ""
	}
	t.Run("moves an archived conversation back to active (D33)", func(t *testing.T) {
		s, _ := newStore(t)
		wantCode(t, s.RestoreConversation(member, reference.RestoreConversationInput{ConversationID: 1}), "")
		if got := status(s, 1); got != reference.ConversationActive {
			t.Fatalf("status = %q", got)
		}
	})
	t.Run("leaves an active conversation active (D33)", func(t *testing.T) {
		s, _ := newStore(t)
		wantCode(t, s.RestoreConversation(member, reference.RestoreConversationInput{ConversationID: 2}), "")
		if got := status(s, 2); got != reference.ConversationActive {
			t.Fatalf("status = %q", got)
		}
	})
	t.Run("rejects another user's conversation and leaves it archived (D33)", func(t *testing.T) {
		s, _ := newStore(t)
		wantCode(t, s.RestoreConversation(member, reference.RestoreConversationInput{ConversationID: 3}), reference.ENOTFOUND)
		if got := status(s, 3); got != reference.ConversationArchived {
			t.Fatalf("status = %q", got)
		}
	})
	t.Run("rejects an unknown conversation", func(t *testing.T) {
		s, _ := newStore(t)
		wantCode(t, s.RestoreConversation(member, reference.RestoreConversationInput{ConversationID: 42}), reference.ENOTFOUND)
	})
}
