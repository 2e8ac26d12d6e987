package instancetype_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

func TestAmountStates(t *testing.T) {
	var unset instancetype.Amount
	assert.False(t, unset.IsSet())
	assert.False(t, unset.IsValid())
	_, err := unset.Quantity()
	assert.ErrorIs(t, err, instancetype.ErrUnset)

	for _, s := range []string{"", "2Gx", "1.2.3", " 1"} {
		a := instancetype.ParseAmount(s)
		assert.True(t, a.IsSet(), "%q", s)
		assert.False(t, a.IsValid(), "%q", s)
		assert.Equal(t, s, a.String())
		_, err := a.Quantity()
		assert.Error(t, err, "%q", s)
		assert.False(t, errors.Is(err, instancetype.ErrUnset), "%q", s)
	}

	for _, s := range []string{"0", "700m", "2Gi", "1e3", "+1", ".5"} {
		a := instancetype.ParseAmount(s)
		assert.True(t, a.IsSet() && a.IsValid(), "%q", s)
		q, err := a.Quantity()
		require.NoError(t, err)
		assert.Equal(t, 0, q.Cmp(quantity.MustParse(s)))
		assert.Equal(t, s, a.String())
	}

	q := quantity.MustParse("1.5")
	a := instancetype.AmountOf(q)
	assert.Equal(t, q.String(), a.String())
	assert.Panics(t, func() { instancetype.MustParseAmount("nope") })
}

func TestAmountJSON(t *testing.T) {
	type doc struct {
		R instancetype.ResourceList `json:"r"`
	}
	var d doc
	require.NoError(t, json.Unmarshal([]byte(`{"r":{"cpu":1,"memory":"2Gi","gpu":null,"empty":"","bad":"2Gx","frac":0.5,"exp":1e3}}`), &d))
	assert.True(t, d.R["cpu"].IsValid())
	assert.Equal(t, "1", d.R["cpu"].String())
	assert.Equal(t, "0.5", d.R["frac"].String())
	assert.True(t, d.R["exp"].IsValid())
	assert.Equal(t, "2Gi", d.R["memory"].String())
	gpu, present := d.R["gpu"]
	assert.True(t, present)
	assert.False(t, gpu.IsSet(), "null means unset")
	assert.True(t, d.R["empty"].IsSet())
	assert.False(t, d.R["empty"].IsValid())
	assert.False(t, d.R["bad"].IsValid())

	b, err := json.Marshal(d)
	require.NoError(t, err)
	var back doc
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, d, back)

	for _, bad := range []string{`true`, `{}`, `[]`, `"\x"`} {
		var a instancetype.Amount
		assert.Error(t, json.Unmarshal([]byte(bad), &a), bad)
	}
}
