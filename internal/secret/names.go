package secret

import "strings"

// names are the readable names of the rules people meet most, where the
// id read word by word would not say it well.
var names = map[string]string{
	"aws-access-token":         "AWS access key",
	"anthropic-api-key":        "Anthropic API key",
	"anthropic-admin-api-key":  "Anthropic admin API key",
	"openai-api-key":           "OpenAI API key",
	"github-pat":               "GitHub token",
	"github-fine-grained-pat":  "GitHub fine-grained token",
	"github-oauth":             "GitHub OAuth token",
	"github-app-token":         "GitHub app token",
	"github-refresh-token":     "GitHub refresh token",
	"gitlab-pat":               "GitLab token",
	"gcp-api-key":              "Google API key",
	"generic-api-key":          "generic secret",
	"private-key":              "private key",
	"jwt":                      "JSON web token",
	"jwt-base64":               "JSON web token (base64)",
	"slack-bot-token":          "Slack bot token",
	"slack-user-token":         "Slack user token",
	"slack-webhook-url":        "Slack webhook URL",
	"stripe-access-token":      "Stripe key",
	"telegram-bot-api-token":   "Telegram bot token",
	"facebook-access-token":    "Facebook access token",
	"npm-access-token":         "npm token",
	"pypi-upload-token":        "PyPI upload token",
	"huggingface-access-token": "Hugging Face token",
	"curl-auth-header":         "authorization header in a curl command",
	"curl-auth-user":           "credentials in a curl command",
	"kubernetes-secret-yaml":   "Kubernetes secret",
}

// words spell the parts of an id that are names or acronyms.
var words = map[string]string{
	"api": "API", "aws": "AWS", "gcp": "GCP", "jwt": "JWT", "pat": "token", "id": "ID",
	"url": "URL", "oauth": "OAuth", "github": "GitHub", "gitlab": "GitLab", "openai": "OpenAI",
	"cicd": "CI/CD", "ci": "CI", "sdk": "SDK", "yaml": "YAML", "npm": "npm", "pypi": "PyPI",
	"digitalocean": "DigitalOcean", "hubspot": "HubSpot", "linkedin": "LinkedIn",
	"mailchimp": "Mailchimp", "sendgrid": "SendGrid", "planetscale": "PlanetScale",
	"rubygems": "RubyGems", "new": "New", "relic": "Relic", "ad": "AD",
}

// Name is the readable name of a gitleaks rule id: "aws-access-token" is
// "AWS access key", "github-pat" "GitHub token"; an id without a name of
// its own is read word by word, its first word capitalized.
func Name(id string) string {
	if n, ok := names[id]; ok {
		return n
	}
	parts := strings.Split(id, "-")
	for i, p := range parts {
		if w, ok := words[p]; ok {
			parts[i] = w
		} else if i == 0 && p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, " ")
}
