"""/terms: the Terms of Service (nine sections, effective October 16, 2025, governed by Florida law)."""

from app.ui import routes
from app.ui.site.legal import Section, legal_page
from app.ui.state.company import AT_BUILD

_CO = AT_BUILD.name

SECTIONS: list[Section] = [
    (
        "use-of-the-site",
        "Use of the Site",
        [
            f"These Terms of Service govern your use of the {_CO} website, including the client portal. By using "
            "the site you agree to these terms; if you do not agree, please do not use it.",
            "You agree to use the site only for lawful purposes and not to:",
            [
                "Attempt to gain unauthorised access to the site, other accounts or our systems.",
                "Interfere with the site's operation, for example by introducing malware or overloading it with "
                "automated requests.",
                "Submit false, misleading or unlawful information, or content you do not have the right to share.",
                "Use the site to send spam or to collect information about other users.",
            ],
            "If you create a client portal account, you are responsible for keeping your credentials confidential "
            "and for all activity under your account. Tell us immediately if you suspect unauthorised use.",
        ],
    ),
    (
        "intellectual-property",
        "Intellectual Property",
        [
            f"The website and its content, including text, graphics, logos, designs and software, are owned by or "
            f"licensed to {_CO} and are protected by copyright, trademark and other laws. You may view and print "
            "pages for your own non-commercial use, but you may not copy, modify, distribute or create derivative "
            "works from them without our written permission.",
            "Ownership of deliverables created for clients is governed by the written agreement for each project, "
            "not by these terms.",
        ],
    ),
    (
        "third-party-links",
        "Third-Party Links",
        [
            "The site may link to websites and services operated by others, such as client projects, social "
            "networks and scheduling tools. We provide these links for convenience only; we do not control and are "
            "not responsible for their content, policies or practices, and your use of them is at your own risk "
            "and subject to their terms.",
        ],
    ),
    (
        "disclaimer",
        "Disclaimer",
        [
            'The site and its content are provided "as is" and "as available", for general information. To '
            "the fullest extent permitted by law, we disclaim all warranties, express or implied, including "
            "warranties of merchantability, fitness for a particular purpose and non-infringement. We do not "
            "warrant that the site will be uninterrupted, error-free or free of harmful components.",
            "Nothing on the site is professional advice for your specific situation. Quotes, estimates and "
            "examples are indicative until confirmed in a written agreement.",
        ],
    ),
    (
        "limitation-of-liability",
        "Limitation of Liability",
        [
            f"To the fullest extent permitted by law, {_CO} and its owners, employees and partners will not be "
            "liable for any indirect, incidental, special, consequential or punitive damages, or for any loss of "
            "profits, data or goodwill, arising from your use of or inability to use the site, even if we have "
            "been advised of the possibility of such damages.",
            "Our total liability for any claim arising from the site will not exceed one hundred US dollars "
            "(US$100). Liability for services we provide under a client agreement is governed by that agreement.",
        ],
    ),
    (
        "changes-to-terms",
        "Changes to These Terms",
        [
            "We may revise these terms from time to time. The updated version takes effect when it is posted on "
            "this page with a new effective date. If a change is significant, we will give reasonable notice on "
            "the site or by e-mail to account holders. Continuing to use the site after changes take effect means "
            "you accept them.",
        ],
    ),
    (
        "termination",
        "Termination",
        [
            "We may suspend or end your access to the site or the client portal at any time, without notice, if "
            "you breach these terms or if we reasonably believe your use harms the site, other users or us. You "
            "may stop using the site and ask us to close your account at any time. Sections that by their nature "
            "should survive termination, such as intellectual property, disclaimers, limitation of liability and "
            "governing law, will survive.",
        ],
    ),
    (
        "governing-law",
        "Governing Law",
        [
            "These terms are governed by the laws of the State of Florida, USA, without regard to its conflict of "
            "law rules. Any dispute arising from them or from your use of the site will be brought exclusively in "
            "the state or federal courts located in St. Lucie County, Florida, and you consent to the jurisdiction "
            "of those courts.",
        ],
    ),
    (
        "contact",
        "Contact",
        [
            f"Questions about these Terms of Service? Contact {_CO} at {AT_BUILD.email}, by phone at "
            f"{AT_BUILD.phone}, or by mail at {AT_BUILD.address}.",
        ],
    ),
]


legal_page(
    routes.TERMS,
    "Terms of Service",
    f"The terms for using the {_CO} website and client portal, governed by the laws of Florida, USA.",
    "Please read these terms carefully. They explain the rules for using our website and client portal.",
    SECTIONS,
)
