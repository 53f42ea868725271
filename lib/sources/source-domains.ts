// The shipped mapping of cited domains to source categories (lib/sources/categories.ts reads it).
// Where it comes from: the domains the simulator cites (lib/providers/simulator-answers.ts), and
// the sites that answer engines cite most for software and buying questions, collected by hand
// from public lists of top review, community, news, reference and social sites (English, German,
// French, Spanish and Russian-speaking markets). Keys are registrable domains, as citations store
// them (lib/analysis/citations.ts); a few hosts ("learn.microsoft.com") apply where the host is
// known (a cited page) and its registrable domain alone is not the category. To extend it, add the domain to its category below (one line, sorted)
// and a case to lib/sources/categories.test.ts if it needs a pattern; a workspace can override
// any domain for itself under Sources.
// Data only, importing nothing: categories.ts checks its keys against the categories.
export const SOURCE_DOMAINS = {
  review: [
    "alternativeto.net", "appsumo.com", "bestreviews.com", "business.com", "businessnewsdaily.com",
    "capterra.co.uk", "capterra.com", "capterra.de", "capterra.es", "capterra.fr",
    "cnet.com", "comparably.com", "consumerreports.org", "crozdesk.com", "digital.com",
    "expertinsights.com", "featuredcustomers.com", "financesonline.com", "gartner.com", "getapp.com",
    "getapp.de", "glassdoor.com", "g2.com", "itqlick.com", "nerdwallet.com", "omr.com",
    "peerspot.com", "pcmag.com", "producthunt.com", "rtings.com", "saasworthy.com", "selecthub.com",
    "slashdot.org", "softwareadvice.com", "softwaresuggest.com", "sourceforge.net", "stackshare.io",
    "tomsguide.com", "tomshardware.com", "trustpilot.com", "trustradius.com", "softwareadvice.co.uk",
    "techradar.com", "wirecutter.com", "emailtooltester.com", "tekpon.com", "forrester.com",
    "appvizer.com", "appvizer.fr", "otzovik.com", "irecommend.ru", "tadviser.ru", "startpack.ru",
    "vc-review.ru", "yell.ru", "sitejabber.com", "versus.com", "tooltester.com", "cloudwards.net",
    "websiteplanet.com", "technologyadvice.com", "softwareworld.co", "goodfirms.co", "clutch.co",
  ],
  forum: [
    "answers.microsoft.com", "discord.com", "discourse.org", "habr.com",
    "indiehackers.com", "quora.com", "reddit.com", "redd.it", "serverfault.com", "spiceworks.com",
    "stackexchange.com", "stackoverflow.com", "superuser.com", "ycombinator.com", "askubuntu.com",
    "tenchat.ru", "pikabu.ru", "vc.ru", "dtf.ru", "otvet.mail.ru",
    "gutefrage.net", "commentcamarche.net", "forocoches.com", "lobste.rs", "dev.to", "hashnode.com",
    "slack.com", "growthhackers.com", "warriorforum.com", "blackhatworld.com",
    "tripadvisor.com", "xda-developers.com", "4pda.to", "4pda.ru", "lemmy.world", "news.ycombinator.com",
  ],
  news: [
    "apnews.com", "axios.com", "bbc.co.uk", "bbc.com", "bloomberg.com", "businessinsider.com",
    "cnbc.com", "cnn.com", "computerworld.com", "crunchbase.com", "economist.com", "engadget.com",
    "fastcompany.com", "forbes.com", "fortune.com", "ft.com", "geekwire.com", "guardian.co.uk",
    "hbr.org", "inc.com", "infoworld.com", "marketwatch.com", "mashable.com", "nytimes.com",
    "npr.org", "reuters.com", "sifted.eu", "siliconangle.com", "techcrunch.com", "theguardian.com",
    "theinformation.com", "theregister.com", "theverge.com", "venturebeat.com", "washingtonpost.com",
    "wired.com", "wsj.com", "zdnet.com", "arstechnica.com", "businesswire.com", "prnewswire.com",
    "globenewswire.com", "entrepreneur.com", "medium.com", "substack.com", "searchengineland.com",
    "searchenginejournal.com", "marketingland.com", "martech.org", "adweek.com", "digiday.com",
    "spiegel.de", "zeit.de", "faz.net", "handelsblatt.com", "heise.de", "golem.de", "t3n.de",
    "sueddeutsche.de", "welt.de", "lemonde.fr", "lefigaro.fr", "lesechos.fr", "journaldunet.com",
    "elpais.com", "elmundo.es", "expansion.com", "rbc.ru", "kommersant.ru", "vedomosti.ru",
    "ria.ru", "tass.ru", "lenta.ru", "interfax.ru", "cnews.ru", "forbes.ru",
    "9to5mac.com", "macrumors.com", "androidauthority.com", "gizmodo.com", "lifehacker.com",
    "makeuseof.com", "howtogeek.com", "zdnet.de", "computerbild.de", "chip.de", "01net.com",
    "yahoo.com", "msn.com", "usatoday.com", "latimes.com", "time.com", "newsweek.com", "qz.com",
    "protocol.com", "thenextweb.com", "techrepublic.com", "informationweek.com", "cio.com",
  ],
  reference: [
    "wikipedia.org", "wikimedia.org", "wikidata.org", "wikihow.com", "wiktionary.org",
    "britannica.com", "investopedia.com", "merriam-webster.com", "dictionary.com", "cambridge.org",
    "oxfordreference.com", "scholarpedia.org", "arxiv.org", "researchgate.net", "jstor.org",
    "nih.gov", "ncbi.nlm.nih.gov", "sciencedirect.com", "springer.com", "nature.com", "statista.com",
    "pewresearch.org", "semanticscholar.org", "scholar.google.com", "techtarget.com",
    "w3.org", "ietf.org", "iso.org", "europa.eu", "gov.uk", "usa.gov", "who.int", "oecd.org",
    "worldbank.org", "ruwiki.ru", "dic.academic.ru", "academic.ru", "bigenc.ru", "duden.de",
    "larousse.fr", "rae.es", "fandom.com", "imdb.com", "archive.org", "encyclopedia.com",
  ],
  social: [
    "facebook.com", "fb.com", "instagram.com", "linkedin.com", "lnkd.in", "pinterest.com",
    "snapchat.com", "threads.net", "tiktok.com", "twitch.tv", "twitter.com", "x.com", "t.co",
    "vimeo.com", "youtube.com", "youtu.be", "bsky.app", "mastodon.social", "tumblr.com",
    "vk.com", "vkvideo.ru", "ok.ru", "rutube.ru", "dzen.ru", "zen.yandex.ru", "t.me", "telegram.org",
    "xing.com", "weibo.com", "dailymotion.com", "rumble.com", "spotify.com", "podcasts.apple.com",
    "soundcloud.com", "slideshare.net", "loom.com", "wistia.com",
  ],
  docs: [
    "readthedocs.io", "readthedocs.org", "gitbook.io", "gitbook.com", "github.io", "github.com",
    "gitlab.com", "bitbucket.org", "npmjs.com", "pypi.org", "docs.rs", "crates.io", "mozilla.org",
    "mdn.dev", "developer.apple.com", "learn.microsoft.com", "cloud.google.com", "aws.amazon.com",
    "developers.google.com", "postman.com", "swagger.io", "readme.io", "readme.com", "mintlify.app",
    "notion.site", "zendesk.com", "intercom.help", "helpscoutdocs.com", "document360.io",
    "atlassian.net", "confluence.com",
    "pkg.go.dev", "go.dev", "rubygems.org", "nuget.org", "packagist.org", "docker.com", "hub.docker.com",
  ],
};
